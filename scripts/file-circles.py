#!/usr/bin/env python3
"""Circles among the files of one folder of src/, in two graphs, from
what the build leaves behind (run `make` first). Arguments: the build
directory (default build), then the folders (default src/games src/http
src/store); each folder is checked on its own:

  includes: from the -MMD .d files. A module is a file name without .c/.h
            (x.c, x.h and x_internal.h, the private half of x, are one
            module); a -> b when a's source or header pulls in b.h.
  calls:    from the objects' symbols (nm): a -> b when a.o uses a
            function b.o defines. This catches what an include graph hides
            when files share one private header.

Prints both graphs and every strongly connected component of more than one
module; exits 1 if there is any."""
import glob, os, re, subprocess, sys

build = sys.argv[1] if len(sys.argv) > 1 else "build"
folders = sys.argv[2:] or ["src/games", "src/http", "src/store"]


def module(path):
    m = os.path.splitext(os.path.basename(path))[0]
    return m[:-len("_internal")] if m.endswith("_internal") else m


def current(folder):
    """A filter that is false for what an older layout left in the build
    directory: an object or .d file whose source file is gone."""
    def test(build_file):
        name = os.path.splitext(os.path.basename(build_file))[0]
        return os.path.exists(os.path.join(folder, name + ".c"))
    return test


def include_graph(folder):
    prefix = folder[len("src/"):] + "/"
    edges = {}
    for d in filter(current(folder), glob.glob(os.path.join(build, "obj", folder, "*.d"))):
        text = open(d).read().replace("\\\n", " ")
        m = re.match(r"\s*(\S+):(.*?)(\n|$)", text)
        if not m:
            continue
        src = module(m.group(1))
        edges.setdefault(src, set())
        for h in m.group(2).split():
            if h.startswith(folder + "/") and h.endswith(".h") and module(h) != src:
                edges[src].add(module(h))
    for h in glob.glob(os.path.join(folder, "*.h")):
        mod = module(h)
        for inc in re.findall(r'#include "' + re.escape(prefix) + r'([a-z_]+)\.h"', open(h).read()):
            if module(inc) != mod:
                edges.setdefault(mod, set()).add(module(inc))
    return edges


def call_graph(folder):
    defs, uses = {}, {}
    for o in filter(current(folder), glob.glob(os.path.join(build, "obj", folder, "*.o"))):
        mod = os.path.basename(o)[:-2]
        uses.setdefault(mod, set())
        out = subprocess.run(["nm", o], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                defs[parts[2]] = mod
            elif len(parts) == 2 and parts[0] == "U":
                uses[mod].add(parts[1])
    return {m: {defs[s] for s in u if s in defs and defs[s] != m} for m, u in uses.items()}


def circles(edges):
    nodes = sorted(set(edges) | {b for s in edges.values() for b in s})
    index, low, stack, on, found = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in nodes:
        if v not in index:
            strong(v)
    return found


total = 0
for folder, name, graph in [(f, n, g) for f in folders
                            for n, g in (("includes", include_graph(f)), ("calls", call_graph(f)))]:
    print(f"== {folder}: {name}")
    for v in sorted(graph):
        print(f"{v:16} -> {' '.join(sorted(graph[v]))}")
    found = circles(graph)
    for c in found:
        print("CIRCLE:", " <-> ".join(c))
    print(f"{len(graph)} modules, {len(found)} circle(s)")
    total += len(found)
sys.exit(1 if total else 0)
