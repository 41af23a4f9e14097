"""Validate the three blind sets from their published files (not from the source lists)."""
import json, math, os, re, sys, collections
from datetime import date, timedelta
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def jl(p): return [json.loads(l) for l in open(os.path.join(HERE, p), encoding="utf-8")]

# 1. grounding-blind4
g = jl("grounding-blind4.jsonl")
assert [r["id"] for r in g] == [f"blind4-{i}" for i in range(1, len(g) + 1)]
L = {"calc", "timezone", "weather", "wiki", "none"}
for r in g:
    assert set(r) == {"id", "query", "tool", "source", "also"}, r
    assert r["tool"] in L and r["query"].strip() and r["source"], r
    assert all(a in L | {"location"} and a != r["tool"] for a in r["also"]), r
assert len({r["query"].lower().strip(" ?!.") for r in g}) == len(g)
print("grounding-blind4:", len(g), dict(collections.Counter(r["tool"] for r in g)))

# 2. compound-quantities: recompute every answer from "work"
c = jl("compound-quantities.jsonl")
assert [r["id"] for r in c] == [f"cq-{i}" for i in range(1, len(c) + 1)]
env = {"math": math, "date": date, "timedelta": timedelta, "__builtins__": {"sum": sum, "range": range, "round": round, "int": int, "abs": abs}}
for r in c:
    assert set(r) == {"id", "query", "answer", "unit", "tolerance", "kind", "work"}, r
    v = eval(r["work"], env)
    if isinstance(v, date):
        assert r["answer"] == v.isoformat() and r["tolerance"] == 0, r
    else:
        assert isinstance(r["answer"], (int, float)) and abs(r["answer"] - v) <= 1e-6, (r, v)
assert len({r["query"].lower() for r in c}) == len(c)
print("compound-quantities:", len(c), dict(collections.Counter(r["kind"] for r in c)))

# 3. unseen-library: names, references, required fields and types
lib = json.load(open(os.path.join(HERE, "unseen-library/library.json"), encoding="utf-8"))
names = [t["name"] for t in lib["tools"]]
assert len(names) == len(set(names)) == 60 and all(re.match(r"^[A-Za-z0-9_.-]{1,64}$", n) for n in names)
T = {t["name"]: t for t in lib["tools"]}
PY = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "array": list, "object": dict}
def ok(s, v):
    if s["type"] in ("integer", "number") and isinstance(v, bool): return False
    if not isinstance(v, PY[s["type"]]): return False
    if "enum" in s and v not in s["enum"]: return False
    if s["type"] == "object":
        return all(k in v for k in s.get("required", [])) and all(k in s["properties"] and ok(s["properties"][k], x) for k, x in v.items())
    if s["type"] == "array": return all(ok(s["items"], x) for x in v)
    return True
q = jl("unseen-library/queries.jsonl")
assert [r["id"] for r in q] == [f"unseen-{i}" for i in range(1, len(q) + 1)]
for r in q:
    if r["tool"] == "none": assert r["arguments"] == {}; continue
    assert r["tool"] in T and ok(T[r["tool"]]["inputSchema"], r["arguments"]), r
for t in lib["tools"]:
    for ex in t["examples"]: assert ok(t["inputSchema"], ex["arguments"]), (t["name"], ex)
cnt = collections.Counter(r["tool"] for r in q)
print("unseen-library:", len(names), "tools,", len(q), "queries,", cnt["none"], "none; per-tool counts:", sorted(set(v for k, v in cnt.items() if k != "none")))
print("ALL OK")
