# Records reference trajectories of MinAtar's raw games (no sticky actions,
# difficulty ramping on) under a few fixed policies, with every random draw
# the game makes, so that TestReference can replay the same draws into the
# Go games and compare every frame.
#
#   python3 reference.py MINATAR_CHECKOUT STEPS reference.json.gz
#
# made with MinAtar at commit 4241f24 (version 1.0.15), numpy 1.24, and
# STEPS = 3000.
import sys, types, json, gzip, os
import importlib
import numpy as np

# Import the games without the package's __init__, which needs Gymnasium.
pkg = types.ModuleType('minatar')
pkg.__path__ = [os.path.join(sys.argv[1], 'minatar')]
sys.modules['minatar'] = pkg

class Recorder:
    def __init__(self, seed):
        self.rs = np.random.RandomState(seed)
        self.draws = []
    def rand(self, *size):
        v = self.rs.rand(*size)
        for x in np.atleast_1d(v):
            self.draws.append(['f', float(x)])
        return v
    def randint(self, low, high=None, size=None):
        v = self.rs.randint(low, high, size)
        lo, hi = (0, low) if high is None else (low, high)
        for x in np.atleast_1d(v):
            self.draws.append(['i', hi - lo, int(x) - lo])
        return v

def uniform(env, pol):
    return int(pol.randint(6))

def breakout(env, pol):
    # follow the ball's column, 1 in 5 frames at random
    if pol.rand() < 0.2:
        return int(pol.randint(6))
    return 1 if env.ball_x < env.pos else 3 if env.ball_x > env.pos else 0

def freeway(env, pol):
    return 2 if pol.rand() < 0.7 else int(pol.randint(6))

def space_invaders(env, pol):
    return 5 if pol.rand() < 0.5 else int(pol.randint(6))

out = {}
steps = int(sys.argv[2])
runs = [('asterix', 'Asterix', uniform), ('breakout', 'Breakout', uniform), ('freeway', 'Freeway', uniform),
        ('seaquest', 'Seaquest', uniform), ('space_invaders', 'SpaceInvaders', uniform),
        ('breakout', 'Breakout/tracking', breakout), ('freeway', 'Freeway/up', freeway),
        ('space_invaders', 'SpaceInvaders/firing', space_invaders)]
for game, name, policy in runs:
    mod = importlib.import_module('minatar.environments.' + game)
    env = mod.Env(ramping=True)
    rec = Recorder(1)
    env.random = rec
    env.reset()
    pol = np.random.RandomState(2)
    frames, actions, rewards, ends = [], [], [], []
    def frame():
        s = env.state().transpose(2, 0, 1).astype(np.uint8)
        frames.append(np.packbits(s.reshape(-1)).tobytes().hex())
    frame()
    for t in range(steps):
        a = policy(env, pol)
        r, term = env.act(a)
        actions.append(a); rewards.append(float(r)); ends.append(bool(term))
        frame()
        if term:
            env.reset()
            frame()
    out[name] = dict(actions=actions, rewards=rewards, ends=ends, frames=frames, draws=rec.draws)
    print(name, 'episodes', sum(ends), 'return', sum(rewards), 'draws', len(rec.draws), file=sys.stderr)
with gzip.open(sys.argv[3], 'wt') as f:
    json.dump(out, f)
