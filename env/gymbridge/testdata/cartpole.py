"""CartPole-v1 written out with numpy only, for gorl's bridge tests.

The dynamics, termination and rewards are Gymnasium's CartPole-v1 (explicit
Euler, thresholds 12 degrees and 2.4 m); there is no time limit. The
spaces are small stand-ins with Gymnasium's attributes. reset accepts
options={"state": [x, x_dot, theta, theta_dot]} to start from a given
state, so that a test can start it where a Go CartPole starts.
"""

import math

import numpy as np


class Box:
    def __init__(self, low, high, shape, dtype):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape)
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape)


class Discrete:
    def __init__(self, n, start=0):
        self.n, self.start = n, start


class CartPole:
    gravity, masscart, masspole, length, force_mag, tau = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
    theta_threshold = 12 * 2 * math.pi / 360
    x_threshold = 2.4

    def __init__(self):
        high = np.array([self.x_threshold * 2, np.inf, self.theta_threshold * 2, np.inf], dtype=np.float32)
        self.observation_space = Box(-high, high, (4,), np.float32)
        self.action_space = Discrete(2)
        self.state = None
        self.fallen = False
        self.rng = np.random.default_rng()

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        if options and "state" in options:
            self.state = tuple(float(v) for v in options["state"])
        else:
            self.state = tuple(self.rng.uniform(-0.05, 0.05, size=4))
        self.fallen = False
        return np.array(self.state, dtype=np.float32), {}

    def step(self, action):
        if action not in (0, 1):
            raise ValueError("invalid action %r" % (action,))
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if action == 1 else -self.force_mag
        costheta, sintheta = math.cos(theta), math.sin(theta)
        total_mass = self.masspole + self.masscart
        polemass_length = self.masspole * self.length
        temp = (force + polemass_length * theta_dot**2 * sintheta) / total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta**2 / total_mass))
        xacc = temp - polemass_length * thetaacc * costheta / total_mass
        x = x + self.tau * x_dot
        x_dot = x_dot + self.tau * xacc
        theta = theta + self.tau * theta_dot
        theta_dot = theta_dot + self.tau * thetaacc
        self.state = (x, x_dot, theta, theta_dot)
        terminated = bool(x < -self.x_threshold or x > self.x_threshold
                          or theta < -self.theta_threshold or theta > self.theta_threshold)
        if not terminated:
            reward = 1.0
        elif not self.fallen:
            self.fallen = True
            reward = 1.0
        else:
            reward = 0.0
        return np.array(self.state, dtype=np.float32), reward, terminated, False, {}
