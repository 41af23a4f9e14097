import json, random, re, sys, os, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ul_tools import TOOLS
from ul_queries import Q, NONE
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
FMT = {"date": re.compile(r"^\d{4}-\d{2}-\d{2}$"), "date-time": re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$"),
       "email": re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")}

def check(schema, v, path):
    t = schema.get("type")
    if t == "string":
        assert isinstance(v, str) and v, path
        if "enum" in schema: assert v in schema["enum"], (path, v)
        if "pattern" in schema: assert re.search(schema["pattern"], v), (path, v)
        if "format" in schema: assert FMT[schema["format"]].match(v), (path, v)
        if schema.get("format") in ("date", "date-time"):
            from datetime import datetime
            datetime.fromisoformat(v)  # real calendar date
    elif t in ("number", "integer"):
        assert isinstance(v, (int, float)) and not isinstance(v, bool), path
        if t == "integer": assert isinstance(v, int), path
        if "minimum" in schema: assert v >= schema["minimum"], (path, v)
        if "maximum" in schema: assert v <= schema["maximum"], (path, v)
    elif t == "boolean":
        assert isinstance(v, bool), path
    elif t == "array":
        assert isinstance(v, list), path
        assert len(v) >= schema.get("minItems", 0), path
        for i, x in enumerate(v): check(schema["items"], x, f"{path}[{i}]")
    elif t == "object":
        assert isinstance(v, dict), path
        for r in schema.get("required", []): assert r in v, (path, "missing", r)
        for k, x in v.items():
            assert k in schema["properties"], (path, "unknown", k)
            check(schema["properties"][k], x, f"{path}.{k}")
    else:
        raise AssertionError((path, "bad type", t))

def check_schema(s, path):
    assert s["type"] == "object" and isinstance(s["properties"], dict), path
    for r in s["required"]: assert r in s["properties"], (path, r)
    for k, p in s["properties"].items():
        assert p.get("type") in ("string", "number", "integer", "boolean", "array", "object"), (path, k)
        if p["type"] == "object": check_schema(p, f"{path}.{k}")
        if p["type"] == "array" and p["items"].get("type") == "object": check_schema(p["items"], f"{path}.{k}[]")

byname = {}
for t in TOOLS:
    assert NAME_RE.match(t["name"]), t["name"]
    assert t["name"] not in byname, ("duplicate", t["name"])
    byname[t["name"]] = t
    n_sent = len(re.findall(r"[.!?](\s|$)", t["description"]))
    assert 1 <= n_sent <= 3, (t["name"], n_sent)
    check_schema(t["inputSchema"], t["name"])
    assert 2 <= len(t["examples"]) <= 3, t["name"]
    for ex in t["examples"]: check(t["inputSchema"], ex["arguments"], t["name"] + ":example")
assert len(TOOLS) == 60, len(TOOLS)

rows, seen = [], set()
example_qs = {ex["query"].lower() for t in TOOLS for ex in t["examples"]}
for q, tool, args in Q:
    assert tool in byname, tool
    check(byname[tool]["inputSchema"], args, f"{tool}:{q}")
    rows.append({"query": q, "tool": tool, "arguments": args})
for q in NONE:
    rows.append({"query": q, "tool": "none", "arguments": {}})
for r in rows:
    k = r["query"].lower().strip()
    assert k not in seen, ("dup", r["query"]); seen.add(k)
    assert k not in example_qs, ("same as an example", r["query"])
cnt = collections.Counter(r["tool"] for r in rows)
assert all(cnt[n] == 5 for n in byname), {n: cnt[n] for n in byname if cnt[n] != 5}
assert cnt["none"] == 60 and len(rows) == 360, (cnt["none"], len(rows))
print("tools", len(TOOLS), "queries", len(rows), "none", cnt["none"])
random.Random(20261124).shuffle(rows)
if len(sys.argv) > 1:
    out = sys.argv[1]
    lib = {"name": "blind-unseen", "source": "written blind for gear by an AI assistant, 2026-11-24", "license": "CC0-1.0", "tools": TOOLS}
    with open(os.path.join(out, "library.json"), "w", encoding="utf-8") as f:
        json.dump(lib, f, ensure_ascii=False, indent=1); f.write("\n")
    with open(os.path.join(out, "queries.jsonl"), "w", encoding="utf-8") as f:
        for i, r in enumerate(rows, 1):
            f.write(json.dumps({"id": f"unseen-{i}", **r}, ensure_ascii=False) + "\n")
