"""Compact rollout storage: observations kept as bytes, masks as bits, float32 on demand.

A batch environment built with ``obs_dtype="u8"`` writes each observation row as
``byte_dim`` bytes (``env.obs``, uint8) plus ``tail_dim`` float32 values (``env.obs_tail``);
``env.legal_bits()`` packs the legal masks 64 actions to a word. A rollout buffer of those
is about 4 times smaller than float32 rows and byte masks, and a minibatch is expanded back
to the exact float32 rows with the two index tables of ``env.obs_format`` (numpy, bit for
bit what the float32 environment writes)::

    python examples/compact_rollouts.py --game lost-cities --envs 1024 --steps 64

Needs numpy only (see docs/python.md, "Compact observations and masks").
"""

import argparse

import numpy as np

import cardvec


def expand(fmt, obs, tail):
    """The float32 rows ``[..., fmt.dim]`` of compact rows ``obs`` (uint8 [..., byte_dim])
    and ``tail`` (float32 [..., tail_dim]): ``byte / div`` (float32 division) and the tail
    values as they are."""
    out = np.empty(obs.shape[:-1] + (fmt.dim,), np.float32)
    out[..., fmt.byte_index] = obs.astype(np.float32) / fmt.byte_div
    out[..., fmt.tail_index] = tail
    return out


def unpack_masks(bits, num_actions):
    """Byte masks ``[..., num_actions]`` (0/1) of packed masks ``bits`` (uint64 [..., words])."""
    return np.unpackbits(bits.view(np.uint8), axis=-1, bitorder="little")[..., :num_actions]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="lost-cities", help="a registered game id")
    p.add_argument("--envs", type=int, default=1024)
    p.add_argument("--steps", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    env = cardvec.make(args.game, args.envs, seed=args.seed, autoreset=True, obs_dtype="u8")
    fmt = env.obs_format
    t_, n = args.steps, args.envs
    obs = np.empty((t_, n, fmt.byte_dim), np.uint8)
    tail = np.empty((t_, n, fmt.tail_dim), np.float32)
    bits = np.empty((t_, n, env.mask_words), np.uint64)
    actions = np.empty((t_, n), np.int64)
    env.reset()
    for t in range(t_):
        obs[t] = env.obs
        tail[t] = env.obs_tail
        env.legal_bits(out=bits[t])
        a = cardvec.bots.act(env, "random", seed=args.seed + t)
        actions[t] = a
        env.step(np.where(a < 0, 0, a))

    # A minibatch of stored transitions, back to float32 rows and byte masks.
    rng = np.random.default_rng(args.seed)
    ts, lanes = rng.integers(t_, size=256), rng.integers(n, size=256)
    rows = expand(fmt, obs[ts, lanes], tail[ts, lanes])
    masks = unpack_masks(bits[ts, lanes], env.num_actions)
    taken = actions[ts, lanes]  # -1 where the lane had finished (all-zero mask)
    acted = taken >= 0
    legal = masks[acted, taken[acted]]
    assert rows.shape == (len(ts), env.obs_dim) and legal.all(), "a stored action was illegal"
    assert not masks[~acted].any(), "a finished lane had a legal action"
    # The expansion is exact: the environment's own float32 rows, bit for bit.
    now = expand(fmt, env.obs, env.obs_tail)
    assert np.array_equal(now.view(np.uint32), env.obs_f32().view(np.uint32))

    f32_bytes = t_ * n * (4 * env.obs_dim + env.num_actions)
    compact = obs.nbytes + tail.nbytes + bits.nbytes
    print(
        f"{args.game}: {t_} steps x {n} lanes; observation row {4 * env.obs_dim} bytes as "
        f"float32, {fmt.compact_bytes} compact ({fmt.byte_dim} bytes + {fmt.tail_dim} float32); "
        f"buffer with masks {f32_bytes / 2**20:.1f} MiB as float32 + bytes, "
        f"{compact / 2**20:.1f} MiB compact ({f32_bytes / compact:.1f}x smaller)"
    )


if __name__ == "__main__":
    main()
