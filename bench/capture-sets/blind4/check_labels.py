import json, glob, os, sys, re, collections
D = "/tmp/capture-blind4"
ok = True
def err(*a):
    global ok; ok = False; print("  ERROR:", *a)

def strings(o, out):
    if isinstance(o, str): out.append(o)
    elif isinstance(o, dict):
        for v in o.values(): strings(v, out)
    elif isinstance(o, list):
        for v in o: strings(v, out)

tot = collections.Counter(); totF = totS = totN = 0
rows = []
for jl in sorted(glob.glob(D + "/[0-9][0-9]-*.jsonl")):
    name = os.path.basename(jl)[:-6]
    lab = json.load(open(D + "/" + name + ".labels.json"))
    print(name)
    raw = open(jl).read()
    lines = raw.split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    objs = []
    bad = 0
    for l in lines:
        try: objs.append(json.loads(l))
        except Exception: bad += 1
    if bad != lab.get("corruptLines", 0): err("bad lines", bad)
    if not (20 <= len(lines) <= 50): err("line count", len(lines))
    if lab["session"] != name: err("session name")
    vers = {o.get("version") for o in objs if "version" in o}
    if vers != {lab["version"]}: err("versions", vers)
    allstr = []; strings(objs, allstr)
    # zones
    asst_text, user_text, todo_text, other = [], [], [], []
    uuids = set(); tool_uses = {}; results = set()
    for o in objs:
        if "uuid" in o:
            if o["uuid"] in uuids: err("dup uuid")
            uuids.add(o["uuid"])
    for o in objs:
        p = o.get("parentUuid")
        if p and p not in uuids: err("dangling parent", p)
        if o.get("type") == "assistant":
            for b in o["message"]["content"]:
                if b["type"] == "text" and not o.get("isSidechain"): asst_text.append(b["text"])
                if b["type"] == "tool_use":
                    tool_uses[b["id"]] = (b, o.get("isSidechain"))
                    if b["name"] == "TodoWrite":
                        for t in b["input"]["todos"]: todo_text.append(t["content"])
            if len(o["message"]["content"]) != 1: err("multi-block line")
        if o.get("type") == "user":
            c = o["message"]["content"]
            if isinstance(c, str) and not o.get("isSidechain"): user_text.append(c)
            elif isinstance(c, list):
                for b in c:
                    if b.get("type") == "tool_result":
                        results.add(b["tool_use_id"])
                        if "toolUseResult" not in o: err("no toolUseResult")
    if set(tool_uses) != results: err("unpaired tool ids", set(tool_uses) ^ results)
    # message.id sharing: consecutive
    # label checks
    def where(t):
        z = []
        if any(t in x for x in asst_text): z.append("A")
        if any(t in x for x in user_text): z.append("U")
        if t in todo_text: z.append("TODO")
        if any(t in x for x in allstr): z.append("any")
        return z
    for it in lab["expected"]:
        t = it["text"]; w = where(t)
        if "any" not in w: err("expected text not found", t[:60])
        if it["type"] == "preference_noted" and "U" not in w and "A" not in w: err("pref not in prose", t[:50])
        if it["type"] not in ("plan_created", "plan_step_completed", "preference_noted") and "A" not in w: err("expected not in assistant text", t[:60])
        if it["type"] == "plan_step_completed" and "TODO" not in w: err("step not todo")
        for k in it["keywords"]:
            if k != k.lower(): err("keyword not lowercase", k)
            if k not in t.lower(): err("keyword not in text", k, "|", t[:60])
            if "`" in k or "*" in k: err("markdown in keyword", k)
        if len(it["keywords"]) < 2: print("  note: <2 keywords", it["keywords"])
        tot[it["type"]] += 1
    for t in lab["forbidden"] + lab.get("neutral", []):
        if "any" not in where(t): err("forbidden/neutral not found", t[:60])
    for t in lab["secrets"]:
        if t not in raw: err("secret not in raw", t[:20])
    # distinctiveness
    exp = lab["expected"]
    for i, it in enumerate(exp):
        kws = it["keywords"]
        for t in lab["forbidden"] + lab.get("neutral", []):
            if all(k in t.lower() for k in kws): err("forbidden/neutral matches keywords of", kws, "|", t[:50])
        for j, jt in enumerate(exp):
            if j != i and jt["type"] == it["type"] and all(k in jt["text"].lower() for k in kws):
                err("ambiguous keywords", kws, "also match", jt["text"][:50])
        for sct in lab["secrets"]:
            for k in kws:
                if k in sct.lower(): err("keyword inside secret", k)
    for sct in lab["secrets"]:
        for tt in [x["text"] for x in exp] + lab["forbidden"] + lab.get("neutral", []):
            if sct in tt: err("secret inside a labelled sentence", sct[:12])
    # keyword sets must not be satisfied by any other prose sentence
    texts = []
    for o in objs:
        if o.get("isSidechain"): continue
        if o.get("type") == "assistant":
            texts += [b["text"] for b in o["message"]["content"] if b["type"] == "text"]
        if o.get("type") == "user" and isinstance(o["message"]["content"], str): texts.append(o["message"]["content"])
    sents = []
    for tx in texts:
        tx = re.sub(r"```.*?```", "", tx, flags=re.S)
        for line in tx.split("\n"):
            sents += [x for x in re.split(r"(?<=[.?!])\s+(?=[A-Z`*\[])", line) if x.strip()]
    for it in exp:
        if it["type"] == "plan_step_completed": continue
        others = [x for x in sents if all(k in x.lower() for k in it["keywords"]) and x.strip() not in it["text"] and it["text"] not in x]
        if others: err("keywords also satisfied by another sentence", it["keywords"], others[0][:60])
    # recompute files / commands
    cwd = next(o["cwd"] for o in objs if "cwd" in o)
    rel = lambda p: os.path.relpath(p, cwd)
    mod, exp_f, cmds = [], [], 0
    smod, sexp, scmd = [], [], 0
    res_err = {}
    for o in objs:
        if o.get("type") == "user" and isinstance(o["message"]["content"], list):
            for b in o["message"]["content"]:
                if b.get("type") == "tool_result": res_err[b["tool_use_id"]] = b.get("is_error", False)
    for o in objs:
        if o.get("type") != "assistant": continue
        side = o.get("isSidechain")
        for b in o["message"]["content"]:
            if b["type"] != "tool_use": continue
            n, i = b["name"], b["input"]
            E = sexp if side else exp_f
            if n in ("Edit", "Write", "MultiEdit", "NotebookEdit") and not res_err[b["id"]] and not side:
                r = rel(i.get("file_path") or i.get("notebook_path"))
                if r not in mod: mod.append(r)
            if n == "Read":
                r = rel(i["file_path"]);
                if r not in E: E.append(r)
            if n in ("Glob", "Grep") and "path" in i:
                r = rel(i["path"])
                if r not in E: E.append(r)
            if n == "Bash":
                if side: scmd += 1
                else: cmds += 1
    if sorted(mod) != sorted(lab["files"]["modified"]): err("modified mismatch", mod, lab["files"]["modified"])
    if sorted(exp_f) != sorted(lab["files"]["explored"]): err("explored mismatch", exp_f, lab["files"]["explored"])
    if cmds != lab["commands"]: err("commands", cmds, lab["commands"])
    if "sidechain" in lab and (sorted(sexp) != sorted(lab["sidechain"]["explored"]) or scmd != lab["sidechain"]["commands"]): err("sidechain mismatch")
    for f in mod + exp_f:
        if f.startswith("..") or f.startswith("/"): err("path outside repo", f)
    # message id sharing
    byid = collections.defaultdict(set)
    for o in objs:
        if o.get("type") == "assistant": byid[o["message"]["id"]].add(o["requestId"])
    if any(len(v) != 1 for v in byid.values()): err("msg id with multiple requestIds")
    c = collections.Counter(x["type"] for x in exp)
    print("  lines=%d expected=%d %s forbidden=%d neutral=%d secrets=%d cmds=%d mod=%d expl=%d" % (
        len(lines), len(exp), dict(c), len(lab["forbidden"]), len(lab.get("neutral", [])), len(lab["secrets"]), cmds, len(mod), len(exp_f)))
    totF += len(lab["forbidden"]); totS += len(lab["secrets"]); totN += len(lab.get("neutral", []))
print("TOTAL expected", sum(tot.values()), dict(tot), "forbidden", totF, "neutral", totN, "secrets", totS)
print("OK" if ok else "FAILED")
