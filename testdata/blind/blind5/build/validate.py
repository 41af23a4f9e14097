#!/usr/bin/env python3
"""Validate the blind5 files: format, unique ids, labels, tool names, duplicate queries, compound answers."""
import json, math, os, re, sys, collections
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
ERR = []


def err(msg):
    ERR.append(msg)


def load(path):
    rows = []
    for n, l in enumerate(open(path, encoding="utf-8"), 1):
        try:
            rows.append(json.loads(l))
        except Exception as e:
            err(f"{path}:{n}: bad JSON {e}")
    return rows


def norm(q):
    return re.sub(r"[\W_]+", " ", q.lower(), flags=re.UNICODE).strip()


def check_dups(rows, name):
    seen = {}
    for r in rows:
        k = norm(r["query"])
        if k in seen:
            err(f"{name}: duplicate query {r['id']} ~ {seen[k]}: {r['query']!r}")
        seen[k] = r["id"]


def check_ids(rows, name, prefix, n):
    ids = [r.get("id") for r in rows]
    if len(set(ids)) != len(ids):
        err(f"{name}: duplicate ids")
    want = {f"{prefix}{i}" for i in range(1, n + 1)}
    if set(ids) != want:
        err(f"{name}: ids are not {prefix}1..{prefix}{n}")


# ---------- Set A
LABELS = {"calc", "timezone", "weather", "wiki", "translate", "image", "none"}
ALSO = LABELS | {"location"}
PERSONAS = {"typed-chat", "voice", "student", "traveller", "developer", "non-native", "terse", "misspelled"}
A = load(os.path.join(OUT, "grounding-blind5.jsonl"))
if len(A) != 500:
    err(f"A: {len(A)} rows, want 500")
check_ids(A, "A", "blind5-", len(A))
for r in A:
    if list(r) != ["id", "query", "tool", "source", "also"]:
        err(f"A {r.get('id')}: keys {list(r)}")
    if r["tool"] not in LABELS:
        err(f"A {r['id']}: label {r['tool']}")
    if r["source"] not in PERSONAS:
        err(f"A {r['id']}: persona {r['source']}")
    if not isinstance(r["also"], list) or any(a not in ALSO or a == r["tool"] for a in r["also"]):
        err(f"A {r['id']}: also {r['also']}")
    if not r["query"].strip() or r["query"] != r["query"].strip():
        err(f"A {r['id']}: empty/unstripped query")
    nw = len(r["query"].split())
    if not 1 <= nw <= 30:
        err(f"A {r['id']}: {nw} words")
    if r["source"] == "voice" and (r["query"] != r["query"].lower() or re.search(r"[?.!,;:\"']", r["query"])):
        err(f"A {r['id']}: voice query has capitals/punctuation: {r['query']!r}")
check_dups(A, "A")

# ---------- Set B
KINDS = {"mixed-units", "dozens", "range-sum", "date-difference", "word-problem", "percent", "rate", "other"}
ENV = {"math": math, "date": date, "timedelta": timedelta, "sum": sum, "range": range,
       "round": round, "int": int, "abs": abs, "__builtins__": {}}
B = load(os.path.join(OUT, "compound2.jsonl"))
if len(B) != 120:
    err(f"B: {len(B)} rows, want 120")
check_ids(B, "B", "cq2-", len(B))
for r in B:
    if set(r) != {"id", "query", "answer", "unit", "tolerance", "kind", "work"}:
        err(f"B {r.get('id')}: keys {sorted(r)}")
        continue
    if r["kind"] not in KINDS:
        err(f"B {r['id']}: kind {r['kind']}")
    if re.search(r"__|import|open|exec|eval", r["work"]):
        err(f"B {r['id']}: suspicious work")
    v = eval(r["work"], ENV)
    a = r["answer"]
    if isinstance(v, str) or isinstance(a, str):
        if not (isinstance(v, str) and v == a and re.fullmatch(r"\d{4}-\d{2}-\d{2}", a) and r["tolerance"] == 0):
            err(f"B {r['id']}: date answer {a!r} vs {v!r}")
    else:
        tol = r["tolerance"]
        if abs(v - a) > max(tol, 1e-6):
            err(f"B {r['id']}: answer {a} vs recomputed {v}")
        exact_int = abs(v - round(v)) < 1e-9
        if tol == 0 and not exact_int:
            err(f"B {r['id']}: tolerance 0 but answer not an exact integer ({v})")
        if tol != 0 and tol < 0.01:
            err(f"B {r['id']}: tolerance below 0.01")
    if r["kind"] == "date-difference" and not re.search(r"\b(1[89]|20)\d\d\b", r["query"]):
        err(f"B {r['id']}: date without a year")
check_dups(B, "B")

# ---------- Set C
D = os.path.join(OUT, "unseen-library-2")
lib = json.load(open(os.path.join(D, "library.json"), encoding="utf-8"))
for k, v in {"name": "unseen-library-2", "license": "CC0-1.0"}.items():
    if lib.get(k) != v:
        err(f"library {k} = {lib.get(k)}")
tools = lib["tools"]
names = [t["name"] for t in tools]
if len(tools) != 90:
    err(f"library: {len(tools)} tools, want 90")
if len(set(names)) != len(names):
    err("library: duplicate tool names")
TYPES = {"object", "array", "string", "number", "integer", "boolean"}
n_ex = 0
ex_queries = set()
for t in tools:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", t["name"]):
        err(f"tool name {t['name']}")
    if not t.get("description"):
        err(f"{t['name']}: no description")
    s = t["inputSchema"]
    if s.get("type") != "object" or not isinstance(s.get("properties"), dict) or not isinstance(s.get("required"), list):
        err(f"{t['name']}: bad inputSchema")
    for p, ps in s["properties"].items():
        if "type" in ps and ps["type"] not in TYPES:
            err(f"{t['name']}.{p}: type {ps['type']}")
        if ps.get("type") == "array" and "items" not in ps:
            err(f"{t['name']}.{p}: array without items")
        if "enum" in ps and not ps["enum"]:
            err(f"{t['name']}.{p}: empty enum")
    for rq in s["required"]:
        if rq not in s["properties"]:
            err(f"{t['name']}: required {rq} not a property")
    if "examples" in t:
        n_ex += 1
        if not 2 <= len(t["examples"]) <= 4:
            err(f"{t['name']}: {len(t['examples'])} examples")
        for e in t["examples"]:
            ex_queries.add(norm(e["query"]))
if not 25 <= n_ex <= 35:
    err(f"library: {n_ex} tools with examples (want about a third)")
NAMES = set(names)

Q = load(os.path.join(D, "queries.jsonl"))
check_ids(Q, "queries", "ul2-", len(Q))
per_tool = collections.Counter()
for r in Q:
    if r["tool"] != "none" and r["tool"] not in NAMES:
        err(f"queries {r['id']}: unknown tool {r['tool']}")
    for a in r["also"]:
        if a not in NAMES or a == r["tool"]:
            err(f"queries {r['id']}: bad also {a}")
    if r["tool"] == "none" and r["also"]:
        err(f"queries {r['id']}: none with also")
    if r["kind"] not in {"tool", "none-unrelated", "none-near-miss"} or (r["kind"] == "tool") != (r["tool"] != "none"):
        err(f"queries {r['id']}: kind {r['kind']}")
    per_tool[r["tool"]] += 1
    if norm(r["query"]) in ex_queries:
        err(f"queries {r['id']}: same as a library example")
for n in NAMES:
    if per_tool[n] < 3:
        err(f"queries: tool {n} has {per_tool[n]} queries")
kinds = collections.Counter(r["kind"] for r in Q)
if kinds != {"tool": 360, "none-unrelated": 45, "none-near-miss": 45}:
    err(f"queries: kinds {dict(kinds)}")
check_dups(Q, "queries")

R = load(os.path.join(D, "irrelevance.jsonl"))
check_ids(R, "irrelevance", "ul2irr-", len(R))
for r in R:
    c = r["candidates"]
    if not 1 <= len(c) <= 4 or len(set(c)) != len(c) or any(x not in NAMES for x in c):
        err(f"irrelevance {r['id']}: candidates {c}")
    if r["tool"] != "none" and r["tool"] not in c:
        err(f"irrelevance {r['id']}: tool {r['tool']} not among candidates")
cnt = collections.Counter("none" if r["tool"] == "none" else "tool" for r in R)
if cnt != {"none": 100, "tool": 50}:
    err(f"irrelevance: counts {dict(cnt)}")
check_dups(R, "irrelevance")

if ERR:
    print("\n".join(ERR))
    print(f"FAILED: {len(ERR)} problem(s)")
    sys.exit(1)
print(f"OK: A {len(A)}, B {len(B)}, library {len(tools)} tools ({n_ex} with examples), "
      f"queries {len(Q)}, irrelevance {len(R)}")
