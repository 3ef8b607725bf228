//! Reader for CTranslate2's `model.bin`: a version, the spec name, a revision,
//! then variables (name, rank, dims, dtype, byte count, bytes) and aliases.

use std::collections::BTreeMap;

use half::f16;

use super::ConvertError;

/// One stored variable: its shape and where its bytes sit in the file.
#[derive(Debug, Clone)]
pub struct Variable {
    pub dims: Vec<usize>,
    pub dtype: DataType,
    start: usize,
    len: usize,
}

/// CTranslate2's storage types, by their id in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataType {
    Float32,
    Int8,
    Int16,
    Int32,
    Float16,
    BFloat16,
}

/// A parsed model: the raw bytes and an index of variables by name.
pub struct Ct2Model {
    pub spec: String,
    bytes: Vec<u8>,
    variables: BTreeMap<String, Variable>,
}

impl Ct2Model {
    pub fn parse(bytes: Vec<u8>) -> Result<Self, ConvertError> {
        let mut reader = Reader { bytes: &bytes, at: 0 };
        let version = reader.u32()?;
        if !(5..=6).contains(&version) {
            return Err(ConvertError::Format(format!(
                "model.bin version {version} is not supported"
            )));
        }
        let spec = reader.string()?;
        let _revision = reader.u32()?;
        let mut variables = BTreeMap::new();
        for _ in 0..reader.u32()? {
            let (name, variable) = reader.variable()?;
            variables.insert(name, variable);
        }
        for _ in 0..reader.u32()? {
            let alias = reader.string()?;
            let target = reader.string()?;
            if let Some(variable) = variables.get(&target).cloned() {
                variables.insert(alias, variable);
            }
        }
        Ok(Ct2Model { spec, bytes, variables })
    }

    pub fn variable(&self, name: &str) -> Result<&Variable, ConvertError> {
        self.variables
            .get(name)
            .ok_or_else(|| ConvertError::Format(format!("model.bin has no variable {name}")))
    }

    pub fn has(&self, name: &str) -> bool {
        self.variables.contains_key(name)
    }

    /// The variable's values as f32, whatever float type it is stored in.
    pub fn floats(&self, name: &str) -> Result<Vec<f32>, ConvertError> {
        let variable = self.variable(name)?;
        let raw = &self.bytes[variable.start..variable.start + variable.len];
        match variable.dtype {
            DataType::Float32 => Ok(raw
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()),
            DataType::Float16 => {
                Ok(raw.chunks_exact(2).map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32()).collect())
            }
            DataType::BFloat16 => Ok(raw
                .chunks_exact(2)
                .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect()),
            other => Err(ConvertError::Format(format!(
                "{name} is stored as {other:?}; only float models (float16/float32) can be converted"
            ))),
        }
    }

    /// A scalar integer attribute such as `encoder/num_heads`.
    pub fn integer(&self, name: &str) -> Result<i64, ConvertError> {
        let variable = self.variable(name)?;
        let raw = &self.bytes[variable.start..variable.start + variable.len];
        let value = match (variable.dtype, raw.len()) {
            (DataType::Int8, 1) => i64::from(raw[0] as i8),
            (DataType::Int16, 2) => i64::from(i16::from_le_bytes([raw[0], raw[1]])),
            (DataType::Int32, 4) => i64::from(i32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])),
            _ => return Err(ConvertError::Format(format!("{name} is not an integer scalar"))),
        };
        Ok(value)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, count: usize) -> Result<&[u8], ConvertError> {
        let end = self.at.checked_add(count).filter(|end| *end <= self.bytes.len());
        let end = end.ok_or_else(|| {
            ConvertError::Format("model.bin ends early: is a part of it missing?".into())
        })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u8(&mut self) -> Result<u8, ConvertError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, ConvertError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32, ConvertError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn string(&mut self) -> Result<String, ConvertError> {
        let length = usize::from(self.u16()?);
        let raw = self.take(length)?;
        let text = raw.strip_suffix(&[0]).unwrap_or(raw);
        String::from_utf8(text.to_vec())
            .map_err(|_| ConvertError::Format("model.bin holds a name that is not UTF-8".into()))
    }

    fn variable(&mut self) -> Result<(String, Variable), ConvertError> {
        let name = self.string()?;
        let rank = usize::from(self.u8()?);
        let mut dims = Vec::with_capacity(rank);
        for _ in 0..rank {
            dims.push(self.u32()? as usize);
        }
        let dtype = data_type(self.u8()?)?;
        let len = self.u32()? as usize;
        let start = self.at;
        self.take(len)?;
        Ok((name, Variable { dims, dtype, start, len }))
    }
}

fn data_type(id: u8) -> Result<DataType, ConvertError> {
    Ok(match id {
        0 => DataType::Float32,
        1 => DataType::Int8,
        2 => DataType::Int16,
        3 => DataType::Int32,
        4 => DataType::Float16,
        5 => DataType::BFloat16,
        other => return Err(ConvertError::Format(format!("unknown data type id {other}"))),
    })
}
