import sys, re, collections
def leaves(path):
    # returns Counter of key->bytes where key = tuple of first few phantomgo frames (allocation side first)
    lines = open(path).read().split('\n')
    start = next(i for i,l in enumerate(lines) if l.startswith('heap_tree=detailed'))
    out = collections.Counter(); stack = []
    for l in lines[start+1:]:
        m = re.match(r'^( *)n(\d+): (\d+) (.*)$', l)
        if not m:
            if l.startswith('#') or l.startswith('snapshot'): break
            continue
        depth = len(m.group(1)); nch = int(m.group(2)); b = int(m.group(3)); desc = m.group(4)
        stack = stack[:depth]; stack.append(desc)
        if nch == 0:
            frames = []
            for d in stack[1:]:
                fm = re.search(r': (\S+) \((\w+\.c):\d+\)', d)
                if fm: frames.append(fm.group(1))
            if not frames:
                lib = re.search(r'\(in (\S+)\)', stack[-1]) if len(stack)>1 else None
                frames = ['<' + (stack[1][:60] if len(stack)>1 else 'below threshold') + '>']
            out[tuple(frames[:int(sys.argv[4]) if len(sys.argv)>4 else 3])] += b
    return out
a = leaves(sys.argv[1]); b = leaves(sys.argv[2]); n = int(sys.argv[3])
d = collections.Counter({k: b[k]-a[k] for k in set(a)|set(b)})
tot = sum(d.values())
print(f"total heap delta {tot/n/1024:.1f} KiB per game ({tot} B / {n})")
for k,v in d.most_common(40):
    if abs(v)/n < 64: continue
    print(f"{v/n:9.0f} B  {' <- '.join(k)}")
