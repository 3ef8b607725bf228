"""Read a legacy (non-zip, torch<1.6) PyTorch checkpoint without torch; optionally write safetensors."""
import pickle, sys, struct, json, collections
sys.path.insert(0, __import__('os').path.dirname(__file__))
import ptinspect
ELEM = {'FloatStorage': ('F32', 4), 'LongStorage': ('I64', 8), 'HalfStorage': ('F16', 2), 'DoubleStorage': ('F64', 8)}
class U(ptinspect.U):
    def persistent_load(self, pid):
        _, st, key, loc, n, view = pid
        return ptinspect.Storage(st, key, loc, n)
def load(path):
    f = open(path, 'rb')
    magic = pickle.load(f); proto = pickle.load(f); sysinfo = pickle.load(f)
    obj = U(f).load()
    keys = pickle.load(f)
    data = {}
    for k in keys:
        n, = struct.unpack('<q', f.read(8))
        data[k] = n, f.tell()
        # find element size later; need storage type: scan obj
        data[k] = (n, f.tell())
        f.seek(0, 1)
        # skip bytes: size known only via type; assume float32 unless told
        yield_ = None
        f._pending = k
        # elem size lookup
        f.seek(n * ELEM[STYPES[k]][1], 1)
    return magic, proto, sysinfo, obj, keys, data
STYPES = {}
if __name__ == '__main__':
    path = sys.argv[1]
    # first pass to get storage types
    f = open(path, 'rb'); pickle.load(f); pickle.load(f); si = pickle.load(f); obj = U(f).load()
    out = []; ptinspect.walk(obj, '', out)
    for name, t in out: STYPES[t.storage.key] = t.storage.dtype
    magic, proto, sysinfo, obj, keys, data = load(path)
    print('magic', hex(magic), 'protocol', proto, 'sys_info', sysinfo)
    print('top-level', {k: (v if not isinstance(v, dict) else f'dict[{len(v)}]') for k, v in obj.items()} if isinstance(obj, dict) else type(obj))
    tot = 0
    for name, t in out:
        n = 1
        for s in t.size: n *= s
        tot += n
        print(f"{name:40s} {list(t.size)} {t.storage.dtype} offset={t.offset} stride={t.stride}")
    print('params', tot)
    if len(sys.argv) > 2:  # write safetensors (contiguous tensors only)
        raw = open(path, 'rb').read()
        header = {}; blobs = []; pos = 0
        for name, t in out:
            if not name.startswith('model_state.'): continue
            name = name[len('model_state.'):]
            dt, es = ELEM[t.storage.dtype]
            n = 1
            for s in t.size: n *= s
            start = data[t.storage.key][1] + t.offset * es
            b = raw[start:start + n * es]
            header[name] = {'dtype': dt, 'shape': list(t.size), 'data_offsets': [pos, pos + len(b)]}
            blobs.append(b); pos += len(b)
        header['__metadata__'] = {'source': 'Resemblyzer pretrained.pt (legacy torch format), converted without torch'}
        h = json.dumps(header).encode(); h += b' ' * ((8 - len(h) % 8) % 8)
        with open(sys.argv[2], 'wb') as w:
            w.write(struct.pack('<Q', len(h))); w.write(h); [w.write(b) for b in blobs]
        print('wrote', sys.argv[2])
