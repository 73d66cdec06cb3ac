"""Write a PyTorch MLP as a cardvec policy file (docs/policies.md), playable as
`policy:<path>` wherever a bot name is taken:

    python examples/export_policy.py kuhn kuhn.safetensors
    cardvec match kuhn --a policy:kuhn.safetensors --b random --games 2000

`export_policy(net, path, game=..., ...)` takes a `torch.nn.Sequential` of `Linear` layers
with one activation kind between them (ReLU or Tanh), as the PPO examples build their
actors. With the `safetensors` package installed it writes through
`safetensors.torch.save_file`; without it, through the few lines of `_save_file` below
(the same bytes: an 8-byte header length, the JSON header, the tensors).

The command line exports an untrained network of the game's widths (a smoke test of the
format); a trained actor is exported the same way.
"""

from __future__ import annotations

import argparse
import json
import struct

import torch

FORMAT = "cardvec-policy"
VERSION = "1"


def _save_file(tensors: dict[str, torch.Tensor], path: str, metadata: dict[str, str]) -> None:
    """`safetensors.torch.save_file` for f32 tensors, without the package."""
    header: dict[str, object] = {"__metadata__": metadata}
    blobs, offset = [], 0
    for name in sorted(tensors):
        data = tensors[name].detach().to(torch.float32).contiguous().cpu().numpy().tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(tensors[name].shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for data in blobs:
            f.write(data)


def export_policy(
    net: torch.nn.Sequential,
    path: str,
    *,
    game: str,
    options: dict | None = None,
    obs_dtype: str = "f32",
    obs_layout: str | None = None,
    obs_mean: torch.Tensor | None = None,
    obs_std: torch.Tensor | None = None,
    obs_clip: float | None = None,
    action_head: str = "actions",
) -> None:
    """Writes `net` (Linear layers, ReLU or Tanh between them) as a policy file for `game`
    configured with `options` (the registry id and the options it was trained with). With
    `obs_mean` and `obs_std` the network reads `(obs - obs_mean) / obs_std`, clamped to
    `[-obs_clip, obs_clip]` when `obs_clip` is given. `action_head="keys"`: the last layer
    writes one logit per action key of the game (`env.action_key_count` of them; an
    action's logit is its key's, `env.action_keys()`), rather than one per action."""
    if action_head not in ("actions", "keys"):
        raise ValueError(f"action_head is 'actions' or 'keys', not {action_head!r}")
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    kinds = {type(m) for m in net if not isinstance(m, torch.nn.Linear)}
    if kinds - {torch.nn.ReLU, torch.nn.Tanh} or len(kinds) > 1:
        raise ValueError(f"one activation kind, ReLU or Tanh, between Linear layers; got {kinds}")
    activation = "tanh" if torch.nn.Tanh in kinds else "relu"
    tensors = {}
    for i, layer in enumerate(linears):
        tensors[f"layers.{i}.weight"] = layer.weight.detach().float().contiguous()
        tensors[f"layers.{i}.bias"] = layer.bias.detach().float().contiguous()
    if (obs_mean is None) != (obs_std is None):
        raise ValueError("obs_mean and obs_std go together")
    if obs_mean is not None:
        tensors["obs_mean"] = obs_mean.detach().float().contiguous()
        tensors["obs_std"] = obs_std.detach().float().contiguous()
    metadata = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "options": json.dumps(options or {}),
        "obs_dtype": obs_dtype,
        "activation": activation,
    }
    if obs_layout is not None:
        metadata["obs_layout"] = obs_layout
    if action_head != "actions":
        metadata["action_head"] = action_head
    if obs_clip is not None:
        if obs_mean is None or not obs_clip > 0:
            raise ValueError("obs_clip is a positive bound of the normalized input (with obs_mean)")
        metadata["obs_clip"] = repr(float(obs_clip))
    try:
        from safetensors.torch import save_file
    except ImportError:
        save_file = _save_file
    save_file(tensors, path, metadata=metadata)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="registry id (cardvec games)")
    parser.add_argument("path", help="the policy file to write")
    parser.add_argument("--obs-dim", type=int, help="observation width (default: from cardvec)")
    parser.add_argument("--actions", type=int, help="action count (default: from cardvec)")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    obs_dim, actions = args.obs_dim, args.actions
    if obs_dim is None or actions is None:
        import cardvec

        env = cardvec.make(args.game, num_envs=1)
        obs_dim, actions = env.obs_dim, env.num_actions
    torch.manual_seed(args.seed)
    net = torch.nn.Sequential(
        torch.nn.Linear(obs_dim, args.hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(args.hidden, args.hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(args.hidden, actions),
    )
    export_policy(net, args.path, game=args.game)
    print(f"wrote {args.path}: {args.game}, {obs_dim} -> {actions}")


if __name__ == "__main__":
    main()
