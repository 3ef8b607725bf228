//! The few tensor operations CAM++ needs, on row-major `Vec<f32>`:
//! convolutions as im2col and a matrix product, batch norm with running
//! statistics, ReLU.

use ndarray::ArrayView2;

/// `a` (m × k) times `b` (k × n), by ndarray's blocked product
/// (matrixmultiply's SIMD kernels).
pub fn matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let (Ok(left), Ok(right)) =
        (ArrayView2::from_shape((m, k), a), ArrayView2::from_shape((k, n), b))
    else {
        return vec![0.0; m * n];
    };
    left.dot(&right).into_raw_vec_and_offset().0
}

/// Feature maps of one dimension: `channels` rows of `len` values.
#[derive(Debug, Clone)]
pub struct Map {
    pub channels: usize,
    pub len: usize,
    pub data: Vec<f32>,
}

/// Feature planes: `channels` × `height` × `width`.
#[derive(Debug, Clone)]
pub struct Planes {
    pub channels: usize,
    pub height: usize,
    pub width: usize,
    pub data: Vec<f32>,
}

/// A 1-D convolution (weight `outputs` × `channels` × `kernel`).
pub struct Conv1d<'a> {
    pub weight: &'a [f32],
    pub bias: Option<&'a [f32]>,
    pub outputs: usize,
    pub kernel: usize,
    pub stride: usize,
    pub pad: usize,
    pub dilation: usize,
}

impl Conv1d<'_> {
    pub fn apply(&self, x: &Map) -> Map {
        let span = self.dilation * (self.kernel - 1) + 1;
        let len = (x.len + 2 * self.pad - span) / self.stride + 1;
        let rows = x.channels * self.kernel;
        let mut columns = vec![0.0f32; rows * len];
        for c in 0..x.channels {
            for j in 0..self.kernel {
                let row = &mut columns[(c * self.kernel + j) * len..][..len];
                for (t, value) in row.iter_mut().enumerate() {
                    let at = (t * self.stride + j * self.dilation) as isize - self.pad as isize;
                    if at >= 0 && (at as usize) < x.len {
                        *value = x.data[c * x.len + at as usize];
                    }
                }
            }
        }
        let mut data = matmul(self.weight, &columns, self.outputs, rows, len);
        if let Some(bias) = self.bias {
            for (o, b) in bias.iter().enumerate() {
                data[o * len..(o + 1) * len].iter_mut().for_each(|v| *v += b);
            }
        }
        Map { channels: self.outputs, len, data }
    }
}

/// A square 2-D convolution without bias, strided along the height only.
pub fn conv2d(
    x: &Planes,
    weight: &[f32],
    outputs: usize,
    kernel: usize,
    stride: usize,
    pad: usize,
) -> Planes {
    let height = (x.height + 2 * pad - kernel) / stride + 1;
    let width = x.width + 2 * pad - kernel + 1;
    let rows = x.channels * kernel * kernel;
    let cells = height * width;
    let mut columns = vec![0.0f32; rows * cells];
    for c in 0..x.channels {
        for i in 0..kernel {
            for j in 0..kernel {
                let row = &mut columns[((c * kernel + i) * kernel + j) * cells..][..cells];
                for oh in 0..height {
                    let h = (oh * stride + i) as isize - pad as isize;
                    if h < 0 || h as usize >= x.height {
                        continue;
                    }
                    let source = &x.data[(c * x.height + h as usize) * x.width..][..x.width];
                    for ow in 0..width {
                        let w = (ow + j) as isize - pad as isize;
                        if w >= 0 && (w as usize) < x.width {
                            row[oh * width + ow] = source[w as usize];
                        }
                    }
                }
            }
        }
    }
    let data = matmul(weight, &columns, outputs, rows, cells);
    Planes { channels: outputs, height, width, data }
}

/// Batch norm of `channels` rows (running statistics; `scale`/`shift`
/// folded from them at load).
pub fn norm(data: &mut [f32], channels: usize, scale: &[f32], shift: &[f32]) {
    let len = data.len() / channels;
    for c in 0..channels {
        data[c * len..(c + 1) * len].iter_mut().for_each(|v| *v = *v * scale[c] + shift[c]);
    }
}

pub fn relu(data: &mut [f32]) {
    data.iter_mut().for_each(|v| *v = v.max(0.0));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dilated_strided_convolution_matches_by_hand() {
        let x = Map { channels: 1, len: 6, data: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0] };
        let weight = [1.0, 10.0];
        let conv = Conv1d {
            weight: &weight,
            bias: Some(&[0.5]),
            outputs: 1,
            kernel: 2,
            stride: 2,
            pad: 1,
            dilation: 2,
        };
        // padded: 0 1 2 3 4 5 6 0; taps t*2 and t*2+2.
        let y = conv.apply(&x);
        assert_eq!(y.data, vec![0.0 + 20.0 + 0.5, 2.0 + 40.0 + 0.5, 4.0 + 60.0 + 0.5]);
    }

    #[test]
    fn a_two_dimensional_convolution_pads_and_strides_the_height() {
        let x =
            Planes { channels: 1, height: 3, width: 2, data: (1..=6).map(|v| v as f32).collect() };
        let ones = [1.0f32; 9];
        let y = conv2d(&x, &ones, 1, 3, 2, 1);
        assert_eq!((y.height, y.width), (2, 2));
        // rows 0 (pad, 1 2, 3 4) and rows 2 (3 4, 5 6, pad)
        assert_eq!(y.data, vec![10.0, 10.0, 18.0, 18.0]);
    }
}
