import json, random, math, sys, collections, os
from datetime import date, timedelta
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cq_items import ITEMS
KINDS = {"mixed-units","dozens","range-sum","date-difference","word-problem","percent","rate","other"}
rows, seenq = [], set()
for q, work, unit, kind, tol in ITEMS:
    assert kind in KINDS, q
    k = q.lower().strip()
    assert k not in seenq, ("dup", q); seenq.add(k)
    v = eval(work, {"math": math, "date": date, "timedelta": timedelta, "__builtins__": {"sum": sum, "range": range, "round": round, "int": int, "abs": abs}})
    if isinstance(v, date):
        ans = v.isoformat(); tol = 0
    else:
        if isinstance(v, float) and abs(v - round(v)) < 1e-9: v = int(round(v))
        ans = v if isinstance(v, int) else round(v, 6)
        if tol == 0: assert abs(ans - v) < 1e-12, (q, v)
        if not isinstance(ans, int): tol = max(tol, 0.01)  # accept answers rounded to 2 decimals
    rows.append({"query": q, "answer": ans, "unit": unit, "tolerance": tol, "kind": kind, "work": work})
print(len(rows), collections.Counter(r["kind"] for r in rows))
random.Random(20261124).shuffle(rows)
if len(sys.argv) > 1:
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        for i, r in enumerate(rows, 1):
            f.write(json.dumps({"id": f"cq-{i}", **r}, ensure_ascii=False) + "\n")
