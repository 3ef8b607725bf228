"""List tensors in a PyTorch zip checkpoint without torch (stub unpickler)."""
import pickle, zipfile, sys, collections

class Storage:
    def __init__(self, dtype, key, loc, n): self.dtype, self.key, self.n = dtype, key, n
    def __repr__(self): return f"Storage({self.dtype},{self.key},{self.n})"
class T:
    def __init__(self, storage, offset, size, stride, *a):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)
    def __repr__(self): return f"T{list(self.size)} {self.storage.dtype}"
def rebuild_tensor_v2(storage, offset, size, stride, *a): return T(storage, offset, size, stride)
def rebuild_parameter(data, requires_grad, hooks, *a): return data
class Generic:
    def __init__(self, *a, **k): self.args = a; self.state = None
    def __setstate__(self, st): self.state = st
    def __repr__(self): return f"<{type(self).__name__} {self.args} {self.state}>"
class U(pickle.Unpickler):
    def find_class(self, mod, name):
        if name == '_rebuild_tensor_v2': return rebuild_tensor_v2
        if name == '_rebuild_parameter': return rebuild_parameter
        if mod == 'collections' and name == 'OrderedDict': return collections.OrderedDict
        if mod == 'torch' and name.endswith('Storage'): return name
        if mod.startswith('torch') and name in ('float32','float16','bfloat16','int64'): return name
        return type(f"{mod}.{name}", (Generic,), {})
    def persistent_load(self, pid):
        # ('storage', storage_type, key, location, numel)
        _, st, key, loc, n = pid
        return Storage(st if isinstance(st, str) else getattr(st, '__name__', str(st)), key, loc, n)

def walk(o, prefix, out):
    if isinstance(o, T): out.append((prefix, o)); return
    if isinstance(o, dict):
        for k, v in o.items(): walk(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(o, (list, tuple)):
        for i, v in enumerate(o): walk(v, f"{prefix}[{i}]", out)
    elif isinstance(o, Generic):
        st = getattr(o, "state", None)
        if st is not None: walk(st, prefix, out)

def load(path):
    z = zipfile.ZipFile(path)
    pk = [n for n in z.namelist() if n.endswith('/data.pkl')][0]
    return U(z.open(pk)).load()

if __name__ == '__main__':
    obj = load(sys.argv[1])
    if isinstance(obj, dict): print("top-level keys:", list(obj.keys())[:20])
    else: print("top-level:", type(obj))
    out = []; walk(obj, '', out)
    tot = 0
    for name, t in out:
        n = 1
        for s in t.size: n *= s
        tot += n
        if len(sys.argv) < 3 or sys.argv[2] in name: print(f"{name:80s} {list(t.size)} {t.storage.dtype}")
    print("tensors:", len(out), "params:", tot)
    if isinstance(obj, dict):
        for k, v in obj.items():
            if not isinstance(v, (dict, T)): print("meta", k, repr(v)[:600])
