# Times MinAtar's own games for BenchmarkStep's comparison: act (with its
# sticky actions, p = 0.1) and state() per step, uniformly random actions
# drawn beforehand, a reset after each game over; CPU time of the process.
#
#   python3 bench.py MINATAR_CHECKOUT
import sys, time, types, os
import numpy as np

# Import the Environment class without the package's __init__, which needs
# Gymnasium.
pkg = types.ModuleType('minatar')
pkg.__path__ = [os.path.join(sys.argv[1], 'minatar')]
sys.modules['minatar'] = pkg
from minatar.environment import Environment
for game in ['asterix', 'breakout', 'freeway', 'seaquest', 'space_invaders']:
    env = Environment(game, sticky_action_prob=0.1)
    env.seed(1)
    env.reset()
    rng = np.random.RandomState(1)
    acts = rng.randint(6, size=100000)
    n = 100000
    t0 = time.process_time()
    rets, ret, eps = [], 0.0, 0
    for i in range(n):
        r, term = env.act(int(acts[i]))
        s = env.state()
        ret += r
        if term:
            env.reset(); rets.append(ret); ret = 0.0
    dt = time.process_time() - t0
    print(f"{game}: {n/dt:.0f} steps/s ({1e6*dt/n:.1f} us/step), random return {np.mean(rets):.3f} over {len(rets)} episodes")
