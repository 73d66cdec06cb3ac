"""Do the Rust tests and the Python wheel build the library's dependencies with the same
features? Exits 1 and prints each difference if not.

`cargo test` at the root builds the library, the CLI and their dev-dependencies;
`maturin build` builds the extension in python/. Cargo resolves the features of each
build's dependencies from the packages it builds, so a dependency can get a feature in one
build and not in the other; then that dependency and every crate above it, the library
included, is compiled a second time with the same profile (about 2 minutes of the test
command on 2 cores, 2026-12-05). workspace-hack/Cargo.toml asks for the union of both sets;
this script keeps it complete (scripts/test.sh runs it). After a dependency change, add
what it prints to workspace-hack/Cargo.toml: a normal dependency for a normal one, a
build dependency for one that only proc-macros and build scripts use.

    python scripts/feature_sets.py
"""
import collections
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What `cargo test` at the root builds (default members, dev-dependencies included) and
# what maturin builds (the extension alone, no dev-dependencies).
TEST_BUILD = ["-p", "cardvec", "-p", "cardvec-cli", "-e", "normal,build,dev"]
WHEEL_BUILD = ["-p", "cardvec-python", "-e", "normal,build"]


def feature_sets(args):
    """Per package (name and version), the feature sets it is built with (a package can be
    built twice, for the target and for build scripts and proc-macros)."""
    out = subprocess.run(
        ["cargo", "tree", "--locked", "-f", "{p}|{f}", "--prefix", "none", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"cargo tree {' '.join(args)} failed:\n{out.stderr}")
    sets = collections.defaultdict(set)
    for line in out.stdout.splitlines():
        if "|" not in line:
            continue
        package, features = line.split("|", 1)
        name = " ".join(package.replace("(proc-macro)", "").split()[:2])
        features = features.replace("(*)", "").strip()
        sets[name].add(frozenset(f for f in features.split(",") if f))
    return sets


def show(sets):
    return " and ".join("[" + ",".join(sorted(s)) + "]" for s in sorted(sets, key=sorted))


def main():
    test, wheel = feature_sets(TEST_BUILD), feature_sets(WHEEL_BUILD)
    differences = [
        (name, test[name], wheel[name])
        for name in sorted(test.keys() & wheel.keys())
        if test[name] != wheel[name]
    ]
    for name, t, w in differences:
        print(f"{name}: the tests build it with {show(t)}, the wheel with {show(w)}")
    if differences:
        print(
            f"{len(differences)} dependencies differ: add the missing features to "
            "workspace-hack/Cargo.toml (see its header)",
            file=sys.stderr,
        )
        return 1
    print(f"the tests and the wheel share the features of {len(test.keys() & wheel.keys())} dependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
