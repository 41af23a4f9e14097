#!/usr/bin/env python3
"""Deterministic build of the blind5 evaluation files from the hand-written sources in this folder.
Shuffle: random.Random(20261125); ids are numbered after shuffling."""
import json, math, os, random, sys
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
SEED = 20261125
PERSONA = {"tc": "typed-chat", "v": "voice", "s": "student", "tr": "traveller", "d": "developer",
           "nn": "non-native", "t": "terse", "m": "misspelled"}


def lines(name):
    for raw in open(os.path.join(HERE, name), encoding="utf-8"):
        raw = raw.rstrip("\n")
        if raw.strip() and not raw.startswith("#"):
            yield raw


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def shuffled(rows):
    rows = list(rows)
    random.Random(SEED).shuffle(rows)
    return rows


# ---------------- Set A
def build_a():
    rows = []
    for l in lines("setA.txt"):
        label, p, also, q = l.split("|", 3)
        rows.append({"query": q, "tool": label, "source": PERSONA[p],
                     "also": [a for a in also.split(",") if a]})
    rows = shuffled(rows)
    out = [{"id": f"blind5-{i}", **r} for i, r in enumerate(rows, 1)]
    out = [{"id": r["id"], "query": r["query"], "tool": r["tool"], "source": r["source"], "also": r["also"]} for r in out]
    write_jsonl(os.path.join(OUT, "grounding-blind5.jsonl"), out)
    return len(out)


# ---------------- Set B
EVAL_ENV = {"math": math, "date": date, "timedelta": timedelta, "sum": sum, "range": range,
            "round": round, "int": int, "abs": abs, "__builtins__": {}}


def compute(work):
    v = eval(work, EVAL_ENV)
    if isinstance(v, str):
        return v
    if isinstance(v, float) and abs(v - round(v)) < 1e-9:
        return int(round(v))
    if isinstance(v, float):
        return round(v, 6)
    return v


def build_b():
    sys.path.insert(0, HERE)
    from setB import ITEMS
    rows = []
    for kind, q, work, unit, tol in ITEMS:
        rows.append({"query": q, "answer": compute(work), "unit": unit, "tolerance": tol, "kind": kind, "work": work})
    rows = shuffled(rows)
    out = [{"id": f"cq2-{i}", **r} for i, r in enumerate(rows, 1)]
    write_jsonl(os.path.join(OUT, "compound2.jsonl"), out)
    return len(out)


# ---------------- Set C
def build_c():
    sys.path.insert(0, HERE)
    import library_src as L
    tools = []
    for t in L.TOOLS:
        t = dict(t)
        extra = L.EXTRA_EXAMPLES.get(t["name"])
        if extra:
            t["examples"] = t["examples"] + [{"query": q} for q in extra]
        tools.append(t)
    d = os.path.join(OUT, "unseen-library-2")
    os.makedirs(d, exist_ok=True)
    head = {"name": "unseen-library-2", "source": "written blind by a helper, 2026-11-25", "license": "CC0-1.0"}
    with open(os.path.join(d, "library.json"), "w", encoding="utf-8") as f:
        f.write("{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()) + ",\n \"tools\": [\n")
        f.write(",\n".join("  " + json.dumps(t, ensure_ascii=False) for t in tools))
        f.write("\n ]}\n")
    with open(os.path.join(d, "domains.json"), "w", encoding="utf-8") as f:
        json.dump(L.DOMAINS, f, indent=1, ensure_ascii=False)
        f.write("\n")

    rows = []
    for l in lines("queriesC.txt"):
        tool, also, q = l.split("|", 2)
        r = {"query": q}
        if tool.startswith("none:"):
            r["tool"] = "none"
            r["kind"] = {"u": "none-unrelated", "n": "none-near-miss"}[tool[5:]]
        else:
            r["tool"] = tool
            r["kind"] = "tool"
        r["also"] = [a for a in also.split(",") if a]
        rows.append(r)
    rows = shuffled(rows)
    write_jsonl(os.path.join(d, "queries.jsonl"),
                [{"id": f"ul2-{i}", "query": r["query"], "tool": r["tool"], "also": r["also"], "kind": r["kind"]}
                 for i, r in enumerate(rows, 1)])
    nq = len(rows)

    rows = []
    for l in lines("irrC.txt"):
        tool, cands, q = l.split("|", 2)
        rows.append({"query": q, "tool": tool, "candidates": cands.split(",")})
    rows = shuffled(rows)
    write_jsonl(os.path.join(d, "irrelevance.jsonl"),
                [{"id": f"ul2irr-{i}", "query": r["query"], "tool": r["tool"], "candidates": r["candidates"]}
                 for i, r in enumerate(rows, 1)])
    return len(tools), nq, len(rows)


if __name__ == "__main__":
    print("A", build_a())
    print("B", build_b())
    print("C", build_c())
