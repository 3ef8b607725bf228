"""Resemblyzer GE2E (3-layer LSTM 40->256, linear 256->256, ReLU, L2) in numpy, with librosa-style
mel (n_fft=400, hop=160, hann, center=True zero padding, power 2, 40 Slaney mels, slaney norm, no log)."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view as swv
from safetensors.numpy import load_file

def hz_to_mel(f):  # Slaney
    f = np.asanyarray(f, float); m = f / (200.0 / 3)
    lin = 1000.0 / (200.0 / 3); logstep = np.log(6.4) / 27.0
    return np.where(f >= 1000, lin + np.log(np.maximum(f, 1e-10) / 1000.0) / logstep, m)
def mel_to_hz(m):
    m = np.asanyarray(m, float); lin = 1000.0 / (200.0 / 3); logstep = np.log(6.4) / 27.0
    return np.where(m >= lin, 1000.0 * np.exp(logstep * (m - lin)), (200.0 / 3) * m)
def mel_filters(sr=16000, n_fft=400, n_mels=40):
    fftfreqs = np.linspace(0, sr / 2, 1 + n_fft // 2)
    mel_f = mel_to_hz(np.linspace(hz_to_mel(0), hz_to_mel(sr / 2), n_mels + 2))
    fdiff = np.diff(mel_f); ramps = mel_f[:, None] - fftfreqs[None, :]
    w = np.maximum(0, np.minimum(-ramps[:-2] / fdiff[:-1, None], ramps[2:] / fdiff[1:, None]))
    return w * (2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels]))[:, None]
def mel_spectrogram(wav, sr=16000):
    n_fft, hop = 400, 160
    x = np.pad(wav, n_fft // 2)                      # center=True, pad_mode='constant' (librosa>=0.10)
    frames = swv(x, n_fft)[::hop]
    win = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)   # periodic hann
    S = np.abs(np.fft.rfft(frames * win, n_fft)) ** 2
    return (S @ mel_filters(sr, n_fft).T).astype(np.float32)          # (frames, 40)

class VoiceEncoder:
    def __init__(self, path): self.w = load_file(path)
    def forward(self, mels):                          # (T, 40) -> 256
        sig = lambda v: 1 / (1 + np.exp(-v)); x = mels
        for l in range(3):
            Wi, Wh = self.w[f'lstm.weight_ih_l{l}'], self.w[f'lstm.weight_hh_l{l}']
            b = self.w[f'lstm.bias_ih_l{l}'] + self.w[f'lstm.bias_hh_l{l}']
            h = np.zeros(256, np.float32); c = np.zeros(256, np.float32); xi = x @ Wi.T + b; out = []
            for t in range(len(x)):
                g = xi[t] + Wh @ h
                i, f, gg, o = sig(g[:256]), sig(g[256:512]), np.tanh(g[512:768]), sig(g[768:])
                c = f * c + i * gg; h = o * np.tanh(c); out.append(h)
            x = np.array(out)
        e = np.maximum(self.w['linear.weight'] @ h + self.w['linear.bias'], 0)
        return e / np.linalg.norm(e)
    def embed_utterance(self, wav, rate=1.3):
        mel = mel_spectrogram(wav); step = int(round(16000 / rate / 160))
        starts = list(range(0, max(1, len(mel) - 160 + 1), step)) or [0]
        parts = [self.forward(mel[s:s + 160]) for s in starts]
        e = np.mean(parts, 0); return e / np.linalg.norm(e)
