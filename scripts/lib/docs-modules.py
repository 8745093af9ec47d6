#!/usr/bin/env python3
"""The SDK modules that scripts/docs documents, read from the package's own description.

    swift package describe --type json | scripts/lib/docs-modules.py

A module is documented when it is a Swift target of a library product, except test support
(a target whose name ends in "Testing", like AppSDKTesting or Hummingbird's HummingbirdTesting).
Each must have one DocC catalog, <target path>/<anything>.docc. Prints one line per module, in
an order where every module comes after the modules it depends on:

    MODULE<TAB>CATALOG<TAB>DEPENDENCIES

DEPENDENCIES are the documented modules it depends on, directly or not, separated by spaces:
scripts/docs converts the module with their archives, so that a link such as
``/TokenStore/TokenStoreError`` resolves. Exits 1, saying why, when a module has no catalog or
more than one, or when the modules depend on each other in a cycle.
"""
import glob
import json
import os
import sys


def documented_targets(package):
    in_library = {name for product in package["products"] if "library" in product["type"]
                  for name in product["targets"]}
    return {target["name"]: target for target in package["targets"]
            if target["name"] in in_library
            and target.get("module_type") == "SwiftTarget"
            and not target["name"].endswith("Testing")}


def build_order(targets):
    """The targets' names, each after its dependencies among them (depth first)."""
    order, state = [], {}

    def visit(name, path):
        if state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            raise ValueError("the modules depend on each other: " + " -> ".join(path + [name]))
        state[name] = "visiting"
        for dependency in targets[name].get("target_dependencies", []):
            if dependency in targets:
                visit(dependency, path + [name])
        state[name] = "done"
        order.append(name)

    for name in sorted(targets):
        visit(name, [])
    return order


def main():
    package = json.load(sys.stdin)
    root = package["path"]
    targets = documented_targets(package)
    if not targets:
        print("docs-modules: the package has no library module to document", file=sys.stderr)
        return 1
    try:
        order = build_order(targets)
    except ValueError as error:
        print("docs-modules: %s" % error, file=sys.stderr)
        return 1
    closure = {}
    for name in order:
        direct = [d for d in targets[name].get("target_dependencies", []) if d in targets]
        closure[name] = set(direct).union(*(closure[d] for d in direct))
    lines = []
    for name in order:
        folder = os.path.join(root, targets[name]["path"])
        catalogs = sorted(glob.glob(os.path.join(folder, "*.docc")))
        if len(catalogs) != 1:
            found = ", ".join(os.path.relpath(c, root) for c in catalogs) or "none"
            print("docs-modules: %s needs exactly one DocC catalog in %s (found: %s)"
                  % (name, targets[name]["path"], found), file=sys.stderr)
            return 1
        dependencies = " ".join(d for d in order if d in closure[name])
        lines.append("%s\t%s\t%s" % (name, os.path.relpath(catalogs[0], root), dependencies))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
