#!/usr/bin/env python3
"""series_gen.py: run sets of a series written as fsbench JSON, for import, from one
exported set (the template): each label gets the template's description, a creation time,
--meta notes and its own runs, every phase's wall, user and sys times scaled by the label's
level times a run's noise (seeded, so a test gets the same series every time).

usage: series_gen.py TEMPLATE OUTDIR PREFIX LEVELS [--runs N] [--cov C] [--seed S]
                     [--meta KEY=FMT] [--created-step S] [--phase NAME]
LEVELS: comma-separated factors, one per label (1,1,1,1.2,1.2 ...).
--meta kernel=6.{i}: {i} is the label's index. --phase: scale only that phase.
--tree-scale X: the sets claim a tree of that scale (different work).
Writes OUTDIR/PREFIX{i:03d}.json and prints their paths."""
import argparse, copy, json, math, os, random

ap = argparse.ArgumentParser()
ap.add_argument("template"); ap.add_argument("outdir"); ap.add_argument("prefix")
ap.add_argument("levels")
ap.add_argument("--runs", type=int, default=5)
ap.add_argument("--cov", type=float, default=0.03)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--meta", action="append", default=[])
ap.add_argument("--created-step", type=float, default=60)
ap.add_argument("--phase", default=None)
ap.add_argument("--label-fmt", default="{prefix}{i:03d}")
ap.add_argument("--tree-scale", type=float, default=None)
a = ap.parse_args()
tpl = json.load(open(a.template))
rng = random.Random(a.seed)
levels = [float(x) for x in a.levels.split(",")]
run0 = tpl["runs"][0]
for i, lv in enumerate(levels):
    d = copy.deepcopy(tpl)
    d["label"] = a.label_fmt.format(prefix=a.prefix, i=i)
    d["created"] = tpl["created"] + a.created_step * i
    d.pop("created_utc", None)
    if a.tree_scale is not None:
        d["tree"]["scale"] = a.tree_scale
    if a.meta:
        d["meta"] = {m.split("=", 1)[0]: m.split("=", 1)[1].format(i=i) for m in a.meta}
    runs = []
    for r in range(a.runs):
        run = copy.deepcopy(run0)
        run["index"] = r
        run["round"] = r
        noise = math.exp(rng.gauss(0, a.cov))
        for ph in run["phases"]:
            if a.phase and ph["name"] != a.phase:
                continue
            base = max(ph.get("wall_s") or 0.01, 0.01)
            ph["wall_s"] = base * lv * noise
            for k in ("user_s", "sys_s"):
                if ph.get(k) is not None:
                    ph[k] = max(ph[k], 0.001) * lv * noise
        runs.append(run)
    d["runs"] = runs
    path = os.path.join(a.outdir, d["label"] + ".json")
    json.dump(d, open(path, "w"))
    print(path)
