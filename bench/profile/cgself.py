import sys, re, collections
def parse(path):
    names = {'ob':{}, 'fn':{}, 'fl':{}}
    self_cost = collections.Counter(); ob=None; fn=None; skip=False
    for line in open(path):
        line=line.rstrip('\n')
        m = re.match(r'^(ob|fn|fl|fi|fe|cob|cfn|cfi|cfl)=(?:\((\d+)\))?\s*(.*)$', line)
        if m:
            k,i,name = m.groups(); base = k[1:] if k.startswith('c') and k!='cfi' else k
            base = {'fi':'fl','fe':'fl','cfi':'fl','cfl':'fl'}.get(k, base)
            if i:
                if name: names[base][i]=name
                name = names[base].get(i, name)
            if k=='ob': ob=name
            elif k=='fn': fn=name
            continue
        if line.startswith('calls='): skip=True; continue
        if line and (line[0].isdigit() or line[0] in '+-*'):
            if skip: skip=False; continue
            parts=line.split()
            if len(parts)>=2: self_cost[(ob.split('/')[-1], fn)] += int(parts[1])
    return self_cost
def group(ob, fn):
    if 'cjson' in ob: return 'cJSON (build/dup/delete/print, self)'
    if 'sqlite' in ob: return 'SQLite'
    if 'civetweb' in ob: return 'civetweb'
    if 'phantomgo' in ob:
        return 'phantomgo: ' + fn
    if 'libc' in ob:
        if re.search(r'malloc|free|_int_|unlink_chunk|consolidate|tcache|calloc|realloc', fn): return 'libc malloc/free'
        if re.search(r'printf|scanf|strtod|mpn_|hack_digit|localeconv|_IO_|strchrnul|__strtod|round_and_return|str_to_mpn|itoa', fn): return 'libc printf/scanf/strtod (cJSON numbers)'
        if re.search(r'mem|str', fn): return 'libc mem*/str*'
        return 'libc other (syscalls, locks)'
    return ob
c = parse(sys.argv[1]); n = float(sys.argv[2]); tot = sum(c.values())
g = collections.Counter()
for (ob,fn),v in c.items(): g[group(ob,fn)] += v
print(f"total {tot/n:,.0f} Ir per request ({tot:,} / {int(n)})")
print("| owner (self cost) | Ir/request | share |\n|---|---:|---:|")
ours = 0
for k,v in g.most_common():
    if k.startswith('phantomgo'): ours += v; continue
    print(f"| {k} | {v/n:,.0f} | {100*v/tot:.1f}% |")
print(f"| phantomgo code (all functions, self) | {ours/n:,.0f} | {100*ours/tot:.1f}% |")
print("\nTop self functions:")
for (ob,fn),v in c.most_common(18): print(f"  {v/n:10,.0f}  {fn} [{ob}]")
