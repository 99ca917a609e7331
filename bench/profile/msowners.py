import sys, re, collections
def leaves(path):
    lines = open(path).read().split('\n')
    start = next(i for i,l in enumerate(lines) if l.startswith('heap_tree=detailed'))
    heap = int(next(l for l in lines if l.startswith('mem_heap_B=')).split('=')[1])
    extra = int(next(l for l in lines if l.startswith('mem_heap_extra_B=')).split('=')[1])
    out = collections.Counter(); stack = []
    for l in lines[start+1:]:
        m = re.match(r'^( *)n(\d+): (\d+) (.*)$', l)
        if not m: continue
        depth = len(m.group(1)); stack = stack[:depth]; stack.append(m.group(4))
        if int(m.group(2)) == 0: out[owner(' | '.join(stack[1:]))] += int(m.group(3))
    return out, extra
def owner(s):
    if 'referee_new' in s: return 'referee struct (board sized for 25x25: 15.7 KB)'
    if 'referee.c' in s and 'reserve' in s: return 'referee arrays (events, actions, captures, history; 64 slots each)'
    if 'game_alloc' in s: return 'struct game'
    if 'view_json_object' in s and 'game_answer_of' in s and 'act_locked' in s and 'view_with_clock' in s and 'cJSON_Duplicate' not in s: return 'view cache (cJSON tree of one viewer)'
    if 'game_answer_of' in s: return "seats' last answers (cJSON trees)"
    if 'view_json_object' in s: return 'view cache (cJSON tree of one viewer)'
    if 'game_talk' in s: return 'talk'
    if 'game_aid' in s or 'aid_' in s: return 'aid cache'
    if 'sqlite' in s or 'store_' in s: return 'SQLite / store'
    if 'below massif' in s or 'below threshold' in s: return 'below massif threshold'
    return 'other: ' + re.sub(r'0x[0-9A-F]+: ', '', s.split(' | ')[0])[:70]
(a, ea), (b, eb) = leaves(sys.argv[1]), leaves(sys.argv[2]); n = int(sys.argv[3])
d = collections.Counter({k: b[k]-a[k] for k in set(a)|set(b)})
print("| owner | bytes/game |\n|---|---:|")
for k,v in d.most_common():
    if abs(v)/n >= 16: print(f"| {k} | {v/n:,.0f} |")
print(f"| malloc headers/rounding (massif heap_extra) | {(eb-ea)/n:,.0f} |")
print(f"| **total heap** | **{(sum(d.values())+eb-ea)/n:,.0f}** ({(sum(d.values())+eb-ea)/n/1024:.1f} KiB) |")
