"""Envs for gorl's bridge tests: one that fails in its third step in the
way its fault argument names, and cheap envs for benchmarks."""

import os
import time

import numpy as np

from cartpole import Box, Discrete


class Faulty:
    def __init__(self, fault=""):
        self.observation_space = Box(0, 10, (3,), np.float32)
        self.action_space = Discrete(2)
        self.fault = fault
        self.t = 0

    def reset(self, seed=None, options=None):
        self.t = 0
        return np.zeros(3, dtype=np.float32), {"seed": seed}

    def step(self, action):
        self.t += 1
        if self.t == 3:
            if self.fault == "raise":
                raise RuntimeError("faulty env: planned failure")
            if self.fault == "exit":
                os._exit(3)
            if self.fault == "hang":
                time.sleep(3600)
            if self.fault == "garbage":
                os.write(4, b"\xff\xff\xff\xff\x82")
                time.sleep(3600)
        obs = np.array([self.t, action, 0], dtype=np.float32)
        return obs, 1.0, False, False, {"t": self.t, "arr": np.arange(2, dtype=np.int16)}


class Null:
    """Costs nearly nothing to step: a CartPole-sized observation."""

    def __init__(self, shape=(4,), dtype="float32"):
        self.observation_space = Box(0, 255, shape, dtype)
        self.action_space = Discrete(2)
        self.obs = np.zeros(shape, dtype=dtype)

    def reset(self, seed=None, options=None):
        return self.obs, {}

    def step(self, action):
        return self.obs, 1.0, False, False, {}
