import json, random, sys, collections, os
files = {"calc":"g4_calc.txt","timezone":"g4_timezone.txt","weather":"g4_weather.txt","wiki":"g4_wiki.txt","none":"g4_none.txt"}
LABELS = set(files) | {"location"}
rows = []
for label, fn in files.items():
    for ln in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), fn), encoding="utf-8"):
        ln = ln.rstrip("\n")
        if not ln.strip(): continue
        parts = ln.split("|")
        assert 2 <= len(parts) <= 3, ln
        src, q = parts[0], parts[1]
        also = [a for a in parts[2].split(",")] if len(parts) == 3 else []
        assert all(a in LABELS and a != label for a in also), ln
        rows.append({"query": q, "tool": label, "source": src, "also": also})
seen = collections.Counter(r["query"].lower().strip(" ?!.") for r in rows)
d = [q for q, c in seen.items() if c > 1]
assert not d, d
print(collections.Counter(r["tool"] for r in rows), len(rows))
print(collections.Counter(r["source"] for r in rows))
random.Random(20261124).shuffle(rows)
out = sys.argv[1] if len(sys.argv) > 1 else None
if out:
    with open(out, "w", encoding="utf-8") as f:
        for i, r in enumerate(rows, 1):
            f.write(json.dumps({"id": f"blind4-{i}", **r}, ensure_ascii=False) + "\n")
