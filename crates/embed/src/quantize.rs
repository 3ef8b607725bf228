//! The forms a unit vector is kept in: int8 with one scale per vector (384
//! bytes, for the exact re-rank, in the store) and 384 sign bits (48 bytes, the
//! in-memory index scanned by Hamming distance).

use crate::DIMS;

/// Words of a binary code.
pub const CODE_WORDS: usize = DIMS / 64;
pub type Code = [u64; CODE_WORDS];

/// A vector as int8 values times `scale`.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantized {
    pub scale: f32,
    pub values: Vec<i8>,
}

impl Quantized {
    pub fn of(vector: &[f32]) -> Quantized {
        let largest = vector.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let scale = if largest > 0.0 { largest / 127.0 } else { 1.0 };
        let values =
            vector.iter().map(|v| (v / scale).round().clamp(-127.0, 127.0) as i8).collect();
        Quantized { scale, values }
    }

    pub fn from_bytes(scale: f32, bytes: &[u8]) -> Quantized {
        Quantized { scale, values: bytes.iter().map(|b| *b as i8).collect() }
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.values.iter().map(|v| *v as u8).collect()
    }

    /// The dot product with a float vector: the cosine when both are unit vectors.
    pub fn dot(&self, query: &[f32]) -> f32 {
        let sum: f32 = self.values.iter().zip(query).map(|(v, q)| f32::from(*v) * q).sum();
        sum * self.scale
    }

    /// The sign bits of the stored values.
    pub fn code(&self) -> Code {
        code_of(self.values.iter().map(|v| *v > 0))
    }
}

/// The sign bits of a float vector, as its int8 form has them (values that
/// round to zero count as negative, in the index and in the query alike).
pub fn code(vector: &[f32]) -> Code {
    Quantized::of(vector).code()
}

fn code_of(signs: impl Iterator<Item = bool>) -> Code {
    let mut code = [0u64; CODE_WORDS];
    for (i, positive) in signs.take(DIMS).enumerate() {
        if positive {
            code[i / 64] |= 1 << (i % 64);
        }
    }
    code
}

/// Bits that differ.
pub fn hamming(a: &Code, b: &Code) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

/// The dot product of two float vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn unit(raw: Vec<f32>) -> Vec<f32> {
        let length = raw.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-6);
        raw.into_iter().map(|v| v / length).collect()
    }

    proptest! {
        #[test]
        fn int8_keeps_the_cosine_within_a_hundredth(
            a in proptest::collection::vec(-1.0f32..1.0, DIMS),
            b in proptest::collection::vec(-1.0f32..1.0, DIMS),
        ) {
            let (a, b) = (unit(a), unit(b));
            let stored = Quantized::of(&a);
            let again = Quantized::from_bytes(stored.scale, &stored.bytes());
            prop_assert_eq!(&again, &stored);
            prop_assert!((again.dot(&b) - dot(&a, &b)).abs() < 0.01);
            prop_assert_eq!(again.code(), code(&a));
            prop_assert_eq!(hamming(&code(&a), &code(&a)), 0);
        }
    }

    #[test]
    fn opposite_vectors_differ_in_every_bit() {
        let a = unit((0..DIMS).map(|i| (i as f32 * 0.37).sin() + 0.01).collect());
        let b: Vec<f32> = a.iter().map(|v| -v).collect();
        assert_eq!(hamming(&code(&a), &code(&b)), DIMS as u32);
    }
}
