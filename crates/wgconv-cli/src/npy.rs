//! `.npy` files through npyz: f32 (`<f4`), f16 (`<f2`) and int8 (`|i1`), C order. Every error names the file.
//! The data size is checked against the file size before anything is allocated, so a forged
//! header cannot ask for an unbounded allocation.

use std::{
    fs::File,
    io::{BufReader, BufWriter},
    path::Path,
};

use crate::error::{CliError, CliResult};

/// Element types the CLI reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NpyDType {
    /// `<f4`
    F32,
    /// `<f2`
    F16,
    /// `|i1`
    I8,
}

impl NpyDType {
    /// NumPy's spelling (`<f4`).
    pub fn descr(self) -> &'static str {
        match self {
            NpyDType::F32 => "<f4",
            NpyDType::F16 => "<f2",
            NpyDType::I8 => "|i1",
        }
    }
    fn size(self) -> u64 {
        match self {
            NpyDType::F32 => 4,
            NpyDType::F16 => 2,
            NpyDType::I8 => 1,
        }
    }
}

/// An array read from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct NpyArray<T> {
    /// Shape.
    pub shape: Vec<usize>,
    /// Data, C order.
    pub data: Vec<T>,
}

fn usage(path: &Path, what: impl std::fmt::Display) -> CliError {
    CliError::Usage(format!("{}: {what}", path.display()))
}

/// Reads the header text and its total size (magic, version, length field, header; format
/// versions 1–3), or `None` when the file is not framed like a .npy file.
fn read_header(file: &mut File, file_len: u64) -> Option<(String, u64)> {
    use std::io::Read;
    let mut prefix = [0u8; 12];
    file.read_exact(&mut prefix).ok()?;
    let (start, len) = match prefix[6] {
        1 => (10, u64::from(u16::from_le_bytes([prefix[8], prefix[9]]))),
        2 | 3 => (12, u64::from(u32::from_le_bytes([prefix[8], prefix[9], prefix[10], prefix[11]]))),
        _ => return None,
    };
    if start + len > file_len {
        return None;
    }
    let mut header = vec![0u8; len as usize];
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(start)).ok()?;
    file.read_exact(&mut header).ok()?;
    Some((String::from_utf8_lossy(&header).into_owned(), start + len))
}

/// Element count from the header's `'shape': (…)`, checked for overflow. npyz multiplies the
/// dimensions (and their suffixes, for strides) unchecked, so a forged header must be caught here
/// first: the product of the non-zero dimensions must fit 64 bits too.
fn header_element_count(header: &str) -> Result<u64, String> {
    let after = header.split_once("'shape'").map(|(_, rest)| rest).ok_or("no 'shape' in the header")?;
    let inner = after
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(inner, _)| inner)
        .ok_or("malformed 'shape'")?;
    let dims = inner
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| d.parse::<u64>().map_err(|_| format!("bad dimension {d:?} in 'shape'")))
        .collect::<Result<Vec<u64>, String>>()?;
    // Zero dimensions count as 1 here: npyz's strides multiply the others regardless.
    dims.iter()
        .try_fold(1u64, |acc, d| acc.checked_mul((*d).max(1)))
        .ok_or_else(|| format!("shape ({inner}) has more elements than fit in 64 bits"))?;
    Ok(dims.iter().product())
}

/// Opens `path` as an array of one of `dtypes` and one of `ranks` (any rank when empty); returns
/// the reader, the shape and the dtype found.
fn open_checked(
    path: &Path,
    dtypes: &[NpyDType],
    ranks: &[usize],
) -> CliResult<(npyz::NpyFile<BufReader<File>>, Vec<usize>, NpyDType)> {
    let mut file = File::open(path).map_err(|e| usage(path, format!("cannot open: {e}")))?;
    let file_len = file.metadata().map_err(|e| usage(path, e))?.len();
    let (header, header_len) = read_header(&mut file, file_len)
        .ok_or_else(|| usage(path, "not a valid .npy file: bad magic, version or header length"))?;
    let data_len = file_len - header_len;
    let elements = header_element_count(&header).map_err(|e| usage(path, format!("not a valid .npy file: {e}")))?;
    if elements > data_len {
        return Err(usage(
            path,
            format!(
                "the header's shape has {elements} elements, more than the file's {data_len} data bytes (truncated?)"
            ),
        ));
    }
    use std::io::Seek;
    file.rewind().map_err(|e| usage(path, e))?;
    let npy =
        npyz::NpyFile::new(BufReader::new(file)).map_err(|e| usage(path, format!("not a valid .npy file: {e}")))?;
    let descr = match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => other.descr(),
    };
    let Some(&dtype) = dtypes.iter().find(|d| d.descr() == descr) else {
        let expected: Vec<&str> = dtypes.iter().map(|d| d.descr()).collect();
        return Err(usage(path, format!("dtype {descr} is not supported here; expected {}", expected.join(" or "))));
    };
    if npy.order() != npyz::Order::C {
        return Err(usage(path, "Fortran-order arrays are not supported; save it in C order (np.ascontiguousarray)"));
    }
    let shape: Vec<u64> = npy.shape().to_vec();
    if !ranks.is_empty() && !ranks.contains(&shape.len()) {
        let expected = ranks.iter().map(ToString::to_string).collect::<Vec<_>>().join(" or ");
        return Err(usage(path, format!("rank {} (shape {shape:?}) but rank {expected} is needed", shape.len())));
    }
    let count = shape.iter().try_fold(1u64, |acc, d| acc.checked_mul(*d));
    let needed = count.and_then(|c| c.checked_mul(dtype.size()));
    match needed {
        Some(bytes) if bytes <= data_len => {}
        _ => {
            return Err(usage(
                path,
                format!("shape {shape:?} needs more data than the file's {data_len} data bytes (truncated?)"),
            ));
        }
    }
    let shape = shape
        .iter()
        .map(|d| usize::try_from(*d).map_err(|_| usage(path, "dimension too large")))
        .collect::<CliResult<_>>()?;
    Ok((npy, shape, dtype))
}

/// Reads an f32 array of one of `ranks` (any rank when empty).
pub fn read_f32(path: &Path, ranks: &[usize]) -> CliResult<NpyArray<f32>> {
    let (npy, shape, _) = open_checked(path, &[NpyDType::F32], ranks)?;
    let data = npy.into_vec::<f32>().map_err(|e| usage(path, format!("cannot read data: {e}")))?;
    Ok(NpyArray { shape, data })
}

/// A float array as stored: f32 or f16.
#[derive(Debug, Clone, PartialEq)]
pub enum FloatArray {
    /// `<f4`
    F32(NpyArray<f32>),
    /// `<f2`
    F16(NpyArray<half::f16>),
}

impl FloatArray {
    /// The shape.
    pub fn shape(&self) -> &[usize] {
        match self {
            FloatArray::F32(a) => &a.shape,
            FloatArray::F16(a) => &a.shape,
        }
    }

    /// The stored type.
    pub fn dtype(&self) -> NpyDType {
        match self {
            FloatArray::F32(_) => NpyDType::F32,
            FloatArray::F16(_) => NpyDType::F16,
        }
    }

    /// The values as f32 (exact for f16).
    pub fn to_f32(&self) -> Vec<f32> {
        match self {
            FloatArray::F32(a) => a.data.clone(),
            FloatArray::F16(a) => a.data.iter().map(|h| h.to_f32()).collect(),
        }
    }
}

/// Reads an f32 or f16 array of one of `ranks` (any rank when empty).
pub fn read_float(path: &Path, ranks: &[usize]) -> CliResult<FloatArray> {
    let (npy, shape, dtype) = open_checked(path, &[NpyDType::F32, NpyDType::F16], ranks)?;
    let read_error = |e: std::io::Error| usage(path, format!("cannot read data: {e}"));
    Ok(match dtype {
        NpyDType::F16 => FloatArray::F16(NpyArray { shape, data: npy.into_vec::<half::f16>().map_err(read_error)? }),
        _ => FloatArray::F32(NpyArray { shape, data: npy.into_vec::<f32>().map_err(read_error)? }),
    })
}

/// Reads an int8 array of one of `ranks` (any rank when empty).
pub fn read_i8(path: &Path, ranks: &[usize]) -> CliResult<NpyArray<i8>> {
    let (npy, shape, _) = open_checked(path, &[NpyDType::I8], ranks)?;
    let data = npy.into_vec::<i8>().map_err(|e| usage(path, format!("cannot read data: {e}")))?;
    Ok(NpyArray { shape, data })
}

fn write<T: npyz::Serialize + npyz::AutoSerialize + Copy>(path: &Path, shape: &[usize], data: &[T]) -> CliResult<()> {
    let runtime = |e: std::io::Error| CliError::Runtime(format!("{}: cannot write: {e}", path.display()));
    let file = File::create(path).map_err(runtime)?;
    let shape: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
    use npyz::WriterBuilder;
    let mut writer = npyz::WriteOptions::new()
        .default_dtype()
        .shape(&shape)
        .writer(BufWriter::new(file))
        .begin_nd()
        .map_err(runtime)?;
    writer.extend(data.iter().copied()).map_err(runtime)?;
    writer.finish().map_err(runtime)
}

/// Writes an f32 array.
pub fn write_f32(path: &Path, shape: &[usize], data: &[f32]) -> CliResult<()> {
    write(path, shape, data)
}

/// Writes an f16 array.
pub fn write_f16(path: &Path, shape: &[usize], data: &[half::f16]) -> CliResult<()> {
    write(path, shape, data)
}

/// Writes an int8 array.
pub fn write_i8(path: &Path, shape: &[usize], data: &[i8]) -> CliResult<()> {
    write(path, shape, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("wgconv-npy-{}-{name}", std::process::id()))
    }

    #[test]
    fn round_trip_f32_and_i8() {
        let p = temp("rt.npy");
        write_f32(&p, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
        assert_eq!(
            read_f32(&p, &[2]).unwrap(),
            NpyArray { shape: vec![2, 3], data: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0] }
        );
        write_i8(&p, &[3], &[-1, 0, 127]).unwrap();
        assert_eq!(read_i8(&p, &[]).unwrap().data, vec![-1, 0, 127]);
        let err = read_f32(&p, &[]).unwrap_err();
        assert!(err.message().contains("dtype |i1"), "{}", err.message());
        let err = read_float(&p, &[]).unwrap_err();
        assert!(err.message().contains("expected <f4 or <f2"), "{}", err.message());
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn f16_round_trips_and_reads_as_a_float_array() {
        let p = temp("rt16.npy");
        let halves: Vec<half::f16> = [1.5f32, -0.25, 65504.0].iter().map(|&v| half::f16::from_f32(v)).collect();
        write_f16(&p, &[3], &halves).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains("'descr': '<f2'"));
        let array = read_float(&p, &[1]).unwrap();
        assert_eq!(array, FloatArray::F16(NpyArray { shape: vec![3], data: halves }));
        assert_eq!((array.dtype(), array.to_f32()), (NpyDType::F16, vec![1.5, -0.25, 65504.0]));
        // An f32 file reads as f32, and not through read_i8.
        write_f32(&p, &[2], &[0.5, 2.0]).unwrap();
        assert_eq!(read_float(&p, &[]).unwrap().dtype(), NpyDType::F32);
        assert!(read_i8(&p, &[]).unwrap_err().message().contains("dtype <f4"));
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn truncated_and_forged_headers_are_rejected_without_allocating() {
        let p = temp("trunc.npy");
        write_f32(&p, &[4, 4], &[0.5; 16]).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() - 10]).unwrap();
        let err = read_f32(&p, &[]).unwrap_err();
        assert!(err.message().contains("truncated"), "{}", err.message());
        // Headers claiming 2^80 elements (overflow) and 2^40 (no data behind them).
        for (dims, expected) in [("1099511627776, 1099511627776", "64 bits"), ("1048576, 1048576", "truncated")] {
            let header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({dims}), }}");
            let mut forged = b"\x93NUMPY\x01\x00".to_vec();
            let padded = format!("{header:<118}\n");
            forged.extend((padded.len() as u16).to_le_bytes());
            forged.extend(padded.as_bytes());
            std::fs::write(&p, &forged).unwrap();
            let err = read_f32(&p, &[]).unwrap_err();
            assert!(err.message().contains(expected), "{}", err.message());
        }
        std::fs::write(&p, b"not numpy").unwrap();
        assert!(read_f32(&p, &[]).unwrap_err().message().contains("not a valid .npy"));
        std::fs::remove_file(p).unwrap();
    }

    mod fuzz {
        use proptest::{prelude::*, test_runner::RngSeed};

        use super::*;

        fn header_bytes(dict: &str) -> Vec<u8> {
            let mut out = b"\x93NUMPY\x01\x00".to_vec();
            let padded = format!("{dict:<118}\n");
            out.extend((padded.len() as u16).to_le_bytes());
            out.extend(padded.as_bytes());
            out
        }

        proptest! {
            #![proptest_config(ProptestConfig {
                cases: 300,
                rng_seed: RngSeed::Fixed(0x0a_11_ce),
                failure_persistence: None,
                ..ProptestConfig::default()
            })]

            /// Random bytes after the magic, random headers and random payload lengths: every read
            /// returns Ok or a usage error naming the file; nothing panics or allocates unboundedly.
            #[test]
            fn reader_never_panics(
                descr in prop::sample::select(vec!["<f4", "|i1", "<i4", ">f4", "<f8", "garbage", ""]),
                fortran in prop::bool::ANY,
                dims in prop::collection::vec(prop::sample::select(vec![0u64, 1, 3, 7, 1 << 20, 1 << 40, u64::MAX]), 0..=4),
                payload in 0usize..=64,
                raw in prop::collection::vec(any::<u8>(), 0..=200),
                use_raw in prop::bool::ANY,
            ) {
                let path = temp(&format!("fuzz-{}.npy", std::thread::current().name().unwrap_or("t").len()));
                let bytes = if use_raw {
                    let mut b = b"\x93NUMPY".to_vec();
                    b.extend(&raw);
                    b
                } else {
                    let shape = dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
                    let shape = if dims.len() == 1 { format!("({shape},)") } else { format!("({shape})") };
                    let fo = if fortran { "True" } else { "False" };
                    let mut b = header_bytes(&format!("{{'descr': '{descr}', 'fortran_order': {fo}, 'shape': {shape}, }}"));
                    b.extend(std::iter::repeat_n(0x3fu8, payload));
                    b
                };
                std::fs::write(&path, &bytes).unwrap();
                for result in [read_f32(&path, &[]).map(|a| a.data.len()), read_i8(&path, &[]).map(|a| a.data.len())] {
                    match result {
                        Ok(len) => prop_assert!(len <= payload),
                        Err(e) => {
                            prop_assert_eq!(e.exit_code(), 2);
                            prop_assert!(e.message().contains(&path.display().to_string()));
                        }
                    }
                }
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}
