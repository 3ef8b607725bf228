"""Convert a PyTorch checkpoint (zip format, or legacy pre-1.6 format) to safetensors
without torch or numpy (stdlib only). Only contiguous tensors are supported (checked).

usage: python3 pt2safetensors.py IN.pt OUT.safetensors [STATE_DICT_KEY] [--drop-prefix P]
  STATE_DICT_KEY: e.g. state_dict (pyannote), model_state (Resemblyzer); '' = top level.
"""
import json, pickle, struct, sys, zipfile, collections

ELEM = {'FloatStorage': ('F32', 4), 'LongStorage': ('I64', 8), 'HalfStorage': ('F16', 2),
        'DoubleStorage': ('F64', 8), 'IntStorage': ('I32', 4), 'BFloat16Storage': ('BF16', 2)}

class Storage:
    def __init__(self, stype, key): self.stype, self.key = stype, key
class Tensor:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)
def _rebuild_tensor_v2(storage, offset, size, stride, *rest): return Tensor(storage, offset, size, stride)
def _rebuild_parameter(data, *rest): return data
class Opaque:
    def __init__(self, *a, **k): pass
    def __setstate__(self, state): self.state = state
class Unpickler(pickle.Unpickler):
    def find_class(self, mod, name):
        if name == '_rebuild_tensor_v2': return _rebuild_tensor_v2
        if name == '_rebuild_parameter': return _rebuild_parameter
        if mod == 'collections' and name == 'OrderedDict': return collections.OrderedDict
        if mod == 'torch' and name.endswith('Storage'): return name
        return type(name, (Opaque,), {})
    def persistent_load(self, pid):
        return Storage(pid[1] if isinstance(pid[1], str) else str(pid[1]), pid[2])

def load(path):
    """Returns (object, read(storage_key) -> bytes)."""
    if zipfile.is_zipfile(path):
        z = zipfile.ZipFile(path)
        pkl = next(n for n in z.namelist() if n.endswith('/data.pkl'))
        prefix = pkl[:-len('data.pkl')]
        obj = Unpickler(z.open(pkl)).load()
        return obj, lambda key: z.read(f'{prefix}data/{key}')
    f = open(path, 'rb')
    for _ in range(3): pickle.load(f)  # magic, protocol, sys_info
    u = Unpickler(f); obj = u.load()
    keys = pickle.load(f)
    # storages follow in `keys` order: int64 numel + raw data; element size from the tensors found
    sizes = {}
    def visit(o):
        if isinstance(o, Tensor): sizes[o.storage.key] = ELEM[o.storage.stype][1]
        elif isinstance(o, dict): [visit(v) for v in o.values()]
        elif isinstance(o, (list, tuple)): [visit(v) for v in o]
        elif isinstance(o, Opaque) and hasattr(o, 'state'): visit(o.state)
    visit(obj)
    blobs = {}
    for k in keys:
        n, = struct.unpack('<q', f.read(8))
        blobs[k] = f.read(n * sizes[k])
    return obj, blobs.__getitem__

def main():
    args = [a for a in sys.argv[1:]]
    src, dst = args[0], args[1]
    key = args[2] if len(args) > 2 else ''
    obj, read = load(src)
    if key: obj = obj[key]
    header, chunks, pos, cache = {}, [], 0, {}
    for name, t in obj.items():
        if not isinstance(t, Tensor): continue
        dt, es = ELEM[t.storage.stype]
        n = 1
        for s in t.size: n *= s
        expect, acc = [], 1
        for s in reversed(t.size): expect.insert(0, acc); acc *= s
        if n > 1 and tuple(st for st, sz in zip(t.stride, t.size) if sz > 1) != tuple(e for e, sz in zip(expect, t.size) if sz > 1):
            sys.exit(f'{name}: non-contiguous stride {t.stride} for size {t.size}')
        if t.storage.key not in cache: cache[t.storage.key] = read(t.storage.key)
        data = cache[t.storage.key][t.offset * es:(t.offset + n) * es]
        assert len(data) == n * es, name
        header[name] = {'dtype': dt, 'shape': list(t.size), 'data_offsets': [pos, pos + len(data)]}
        chunks.append(data); pos += len(data)
    header['__metadata__'] = {'converted_by': 'pt2safetensors.py (no torch)'}
    h = json.dumps(header, separators=(',', ':')).encode()
    h += b' ' * ((8 - len(h) % 8) % 8)
    with open(dst, 'wb') as w:
        w.write(struct.pack('<Q', len(h))); w.write(h)
        for c in chunks: w.write(c)
    print(f'{dst}: {len(header) - 1} tensors, {pos} bytes of data')

if __name__ == '__main__':
    main()
