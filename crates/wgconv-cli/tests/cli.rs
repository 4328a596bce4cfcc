//! The `wgconv` binary end to end: ops on generated .npy files with `--check`, every bad input
//! giving exit 2 (usage) or 1 (runtime) with a message and never a panic, and the quick bench.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use npyz::WriterBuilder;

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Self {
        let p = std::env::temp_dir().join(format!("wgconv-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }
    fn path(&self, file: &str) -> String {
        self.0.join(file).display().to_string()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write_npy<T: npyz::Serialize + npyz::AutoSerialize + Copy>(path: &str, shape: &[u64], data: &[T], fortran: bool) {
    let file = std::fs::File::create(path).unwrap();
    let order = if fortran { npyz::Order::Fortran } else { npyz::Order::C };
    let mut w = npyz::WriteOptions::new().default_dtype().shape(shape).order(order).writer(file).begin_nd().unwrap();
    w.extend(data.iter().copied()).unwrap();
    w.finish().unwrap();
}

fn values(seed: u32, n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (((i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 8) % 2000) as f32 / 1000.0 - 1.0)
        .collect()
}

fn wgconv() -> Command {
    Command::cargo_bin("wgconv").unwrap()
}

/// Runs and returns (exit code, stdout, stderr), asserting no panic.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = wgconv().args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "wgconv {args:?} panicked:\n{stderr}");
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

fn expect_exit(args: &[&str], code: i32, message: &str) {
    let (c, stdout, stderr) = run(args);
    assert_eq!(c, code, "wgconv {args:?}: exit {c}\nstdout: {stdout}\nstderr: {stderr}");
    assert!(stderr.contains(message), "wgconv {args:?}: stderr should mention {message:?}:\n{stderr}");
}

fn conv_files(d: &Dir) -> (String, String, String) {
    let (x, w, b) = (d.path("x.npy"), d.path("w.npy"), d.path("b.npy"));
    write_npy(&x, &[2, 4, 9, 7], &values(1, 2 * 4 * 9 * 7), false);
    write_npy(&w, &[6, 2, 3, 3], &values(2, 6 * 2 * 3 * 3), false);
    write_npy(&b, &[6], &values(3, 6), false);
    (x, w, b)
}

#[test]
fn conv2d_round_trip_with_check() {
    let d = Dir::new("conv");
    let (x, w, b) = conv_files(&d);
    let y = d.path("y.npy");
    let (code, stdout, stderr) = run(&[
        "conv2d",
        "--input",
        &x,
        "--weight",
        &w,
        "--bias",
        &b,
        "--stride",
        "2,1",
        "--padding",
        "1",
        "--dilation",
        "1,2",
        "--groups",
        "2",
        "--activation",
        "clamp:-0.5,0.5",
        "--out",
        &y,
        "--check",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("output shape: [2, 6, 5, 5]"), "{stdout}");
    // Two input channels per group: the depthwise kernel with its channel loop.
    assert!(stdout.contains("kernel: depthwise\n"), "{stdout}");
    assert!(stdout.contains("relative error vs f64 reference"), "{stdout}");
    let file = npyz::NpyFile::new(std::fs::File::open(&y).unwrap()).unwrap();
    assert_eq!(file.shape(), &[2, 6, 5, 5]);
    let data: Vec<f32> = file.into_vec().unwrap();
    assert!(data.iter().all(|v| (-0.5..=0.5).contains(v)));
}

#[test]
fn f16_files_run_an_f16_convolution_with_check() {
    let d = Dir::new("conv16");
    let half = |v: Vec<f32>| v.into_iter().map(half::f16::from_f32).collect::<Vec<_>>();
    let (x, w, b, y) = (d.path("x.npy"), d.path("w.npy"), d.path("b.npy"), d.path("y.npy"));
    write_npy(&x, &[2, 8, 9, 7], &half(values(1, 2 * 8 * 9 * 7)), false);
    write_npy(&w, &[12, 8, 3, 3], &half(values(2, 12 * 8 * 9)), false);
    write_npy(&b, &[12], &half(values(3, 12)), false);
    let args = ["conv2d", "--input", &x, "--weight", &w, "--bias", &b, "--padding", "1", "--out", &y, "--check"];
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("output shape: [2, 12, 9, 7] (float16)"), "{stdout}");
    assert!(stdout.contains("f16 output vs f64 reference"), "{stdout}");
    let file = npyz::NpyFile::new(std::fs::File::open(&y).unwrap()).unwrap();
    assert_eq!(file.shape(), &[2, 12, 9, 7]);
    let data: Vec<half::f16> = file.into_vec().unwrap();
    assert!(data.iter().all(|v| v.is_finite()));
    // An f32 bias with f16 tensors is a usage error naming the file.
    write_npy(&b, &[12], &values(3, 12), false);
    expect_exit(&args, 2, "b.npy: dtype <f4 differs from the input's <f2");
}

#[test]
fn transposed_conv_with_check() {
    let d = Dir::new("convt");
    let (x, _, _) = conv_files(&d);
    let w = d.path("wt.npy");
    write_npy(&w, &[4, 3, 4, 4], &values(5, 4 * 3 * 4 * 4), false);
    let (code, stdout, stderr) = run(&[
        "conv2d",
        "--input",
        &x,
        "--weight",
        &w,
        "--transposed",
        "--stride",
        "2",
        "--padding",
        "1",
        "--output-padding",
        "1",
        "--out",
        &d.path("y.npy"),
        "--check",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("output shape: [2, 3, 19, 15]") && stdout.contains("kernel: gemm"), "{stdout}");
}

#[test]
fn conv2d_runs_a_forced_kernel_or_says_why_not() {
    let d = Dir::new("forced");
    let (x, w, _) = conv_files(&d);
    let y = d.path("y.npy");
    for kernel in ["gemm_n64_k16", "depthwise"] {
        let args =
            ["conv2d", "--input", &x, "--weight", &w, "--groups", "2", "--kernel", kernel, "--out", &y, "--check"];
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        assert!(stdout.contains(&format!("kernel: {kernel}\n")), "{stdout}");
    }
    // A GEMM tile width: 48 runs; 36 is no multiple of 8.
    let forced = ["conv2d", "--input", &x, "--weight", &w, "--groups", "2", "--kernel", "gemm", "--out", &y];
    let (code, stdout, stderr) = run(&[&forced[..], &["--tile-n", "48", "--check"]].concat());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let (code, _, stderr) = run(&[&forced[..], &["--tile-n", "36"]].concat());
    assert_eq!(code, 2, "a usage error, found before any GPU work: {stderr}");
    assert!(stderr.contains("tile_n 36 is not a GEMM tile width"), "{stderr}");
    // Both K loops of a 16-deep tile pass the check; an unknown one is a usage error.
    let sixteen = ["conv2d", "--input", &x, "--weight", &w, "--groups", "2", "--kernel", "gemm_k16", "--out", &y];
    for loads in ["ahead", "in_iteration"] {
        let (code, stdout, stderr) = run(&[&sixteen[..], &["--k-tile-loads", loads, "--check"]].concat());
        assert_eq!(code, 0, "{loads}: {stdout}\n{stderr}");
        assert!(stdout.contains("kernel: gemm_k16\n") && stdout.contains("relative error"), "{stdout}");
    }
    let (code, _, stderr) = run(&[&sixteen[..], &["--k-tile-loads", "late"]].concat());
    assert!(code == 2 && stderr.contains("unknown K-tile loads \"late\""), "{stderr}");
    // Both tile orders pass the check.
    for order in ["n_fastest", "m_fastest"] {
        let (code, stdout, stderr) = run(&[&sixteen[..], &["--tile-order", order, "--check"]].concat());
        assert_eq!(code, 0, "{order}: {stdout}\n{stderr}");
        assert!(stdout.contains("kernel: gemm_k16\n") && stdout.contains("relative error"), "{stdout}");
    }
    // Three output channels per group: not for the four-channels-per-thread kernel.
    let args = ["conv2d", "--input", &x, "--weight", &w, "--groups", "2", "--kernel", "grouped_oc4", "--out", &y];
    let (code, _, stderr) = run(&args);
    assert_ne!(code, 0);
    assert!(stderr.contains("grouped_oc4 cannot run this convolution"), "{stderr}");
    let (code, _, stderr) = run(&["conv2d", "--input", &x, "--weight", &w, "--kernel", "fastest", "--out", &y]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unknown kernel \"fastest\"") && stderr.contains("gemm_n64_k32"), "{stderr}");
    // f16 allowed on a layer the planner gives no GEMM kernel (3 output channels per group):
    // fp32 runs and passes the fp32 check. The tensor-core kernel forced: on a device with f16
    // cooperative matrices it runs and passes the check against the f16-rounded reference;
    // elsewhere (lavapipe) the error says what the device lacks.
    let args = ["conv2d", "--input", &x, "--weight", &w, "--groups", "2", "--precision", "f16", "--out", &y, "--check"];
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(!stdout.contains("coop_f16") && stdout.contains("relative error"), "{stdout}");
    let args =
        ["conv2d", "--input", &x, "--weight", &w, "--groups", "2", "--kernel", "coop_f16", "--out", &y, "--check"];
    let (code, stdout, stderr) = run(&args);
    if code == 0 {
        assert!(stdout.contains("kernel: coop_f16\n") && stdout.contains("relative error"), "{stdout}");
    } else {
        assert!(stderr.contains("coop_f16 needs f16 16×16×16 cooperative matrices"), "{stderr}");
    }
    let (code, _, stderr) = run(&["conv2d", "--input", &x, "--weight", &w, "--precision", "f64", "--out", &y]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unknown precision \"f64\""), "{stderr}");
}

#[test]
fn q8_round_trip_with_check_and_quantize_dequantize() {
    let d = Dir::new("q8");
    let (xf, xq, w, s, y, back) =
        (d.path("xf.npy"), d.path("xq.npy"), d.path("w.npy"), d.path("s.npy"), d.path("y.npy"), d.path("back.npy"));
    write_npy(&xf, &[2, 8, 3, 7], &values(7, 2 * 8 * 3 * 7), false);
    let (code, _, stderr) = run(&["quantize", "--input", &xf, "--scale", "0.01", "--zero-point", "-3", "--out", &xq]);
    assert_eq!(code, 0, "{stderr}");
    let wq: Vec<i8> = (0..5 * 8).map(|i| ((i * 37) % 255) as u8 as i8).collect();
    write_npy(&w, &[5, 8], &wq, false);
    write_npy(&s, &[5], &[0.01f32, 0.02, 0.005, 0.03, 0.01], false);
    let (code, stdout, stderr) = run(&[
        "q8-conv-pw",
        "--input",
        &xq,
        "--weight",
        &w,
        "--weight-scales",
        &s,
        "--input-scale",
        "0.01",
        "--input-zero-point",
        "-3",
        "--output-scale",
        "0.05",
        "--output-zero-point",
        "4",
        "--activation",
        "relu",
        "--out",
        &y,
        "--check",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("output shape: [2, 5, 3, 7]") && stdout.contains("outputs differ"), "{stdout}");
    let (code, _, stderr) = run(&["dequantize", "--input", &y, "--scale", "0.05", "--zero-point", "4", "--out", &back]);
    assert_eq!(code, 0, "{stderr}");
    let restored: Vec<f32> = npyz::NpyFile::new(std::fs::File::open(&back).unwrap()).unwrap().into_vec().unwrap();
    assert_eq!(restored.len(), 2 * 5 * 3 * 7);
    assert!(restored.iter().all(|v| *v >= 0.0), "relu then dequantize must be non-negative");
}

/// `q8-conv-pw --kernel` forces an int8 kernel, `--bit-exact` compares every output byte with
/// `q8_scalar`'s on the same GPU, and the tensor-core kernel runs where the device has
/// cooperative matrices or says what it lacks.
#[test]
fn q8_forced_kernels_are_bit_exact() {
    let d = Dir::new("q8_forced");
    let (x, w, s, y) = (d.path("x.npy"), d.path("w.npy"), d.path("s.npy"), d.path("y.npy"));
    // H·W = 24 and 8 channels: every int8 kernel takes the shape.
    let xq: Vec<i8> = (0..2 * 8 * 4 * 6).map(|i| ((i * 53 + 11) % 256) as u8 as i8).collect();
    write_npy(&x, &[2, 8, 4, 6], &xq, false);
    let wq: Vec<i8> = (0..5 * 8).map(|i| ((i * 37) % 255) as u8 as i8).collect();
    write_npy(&w, &[5, 8], &wq, false);
    write_npy(&s, &[5], &[0.01f32, 0.02, 0.005, 0.03, 0.01], false);
    let args = [
        "q8-conv-pw",
        "--input",
        &x,
        "--weight",
        &w,
        "--weight-scales",
        &s,
        "--input-scale",
        "0.02",
        "--input-zero-point",
        "3",
        "--output-scale",
        "0.05",
        "--output-zero-point",
        "-2",
        "--out",
        &y,
        "--check",
        "--bit-exact",
        "--kernel",
    ];
    for kernel in ["q8_scalar", "q8_dot4_gemm", "q8_dot4_gemm_n32"] {
        let (code, stdout, stderr) = run(&[&args[..], &[kernel]].concat());
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        assert!(stdout.contains(&format!("kernel: {kernel}\n")), "{stdout}");
        assert!(stdout.contains("vs q8_scalar on the GPU: 0 of 240 output bytes differ"), "{stdout}");
    }
    let (code, stdout, stderr) = run(&[&args[..], &["q8_coop"]].concat());
    if code == 0 {
        assert!(stdout.contains("kernel: q8_coop\n") && stdout.contains("0 of 240 output bytes differ"), "{stdout}");
    } else {
        assert!(stderr.contains("q8_coop needs f16 16×16×16 cooperative matrices"), "{stderr}");
    }
    let (code, _, stderr) = run(&[&args[..], &["fastest"]].concat());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unknown int8 kernel \"fastest\"") && stderr.contains("q8_coop"), "{stderr}");
}

#[test]
fn bad_input_files_are_usage_errors() {
    let d = Dir::new("badnpy");
    let (x, w, _) = conv_files(&d);
    let y = d.path("y.npy");
    expect_exit(
        &["conv2d", "--input", &d.path("missing.npy"), "--weight", &w, "--out", &y],
        2,
        "missing.npy: cannot open",
    );
    let ints = d.path("ints.npy");
    write_npy(&ints, &[1, 1, 2, 2], &[1i32, 2, 3, 4], false);
    expect_exit(&["conv2d", "--input", &ints, "--weight", &w, "--out", &y], 2, "ints.npy: dtype <i4 is not supported");
    let fortran = d.path("fortran.npy");
    write_npy(&fortran, &[1, 4, 2, 2], &[0.5f32; 16], true);
    expect_exit(&["conv2d", "--input", &fortran, "--weight", &w, "--out", &y], 2, "Fortran-order");
    let rank2 = d.path("rank2.npy");
    write_npy(&rank2, &[4, 4], &[0.5f32; 16], false);
    expect_exit(&["conv2d", "--input", &rank2, "--weight", &w, "--out", &y], 2, "rank 2");
    let truncated = d.path("trunc.npy");
    let bytes = std::fs::read(&x).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() - 100]).unwrap();
    expect_exit(&["conv2d", "--input", &truncated, "--weight", &w, "--out", &y], 2, "truncated");
    std::fs::write(&truncated, b"\x93NUMPY garbage").unwrap();
    expect_exit(&["conv2d", "--input", &truncated, "--weight", &w, "--out", &y], 2, "not a valid .npy");
    expect_exit(
        &[
            "q8-conv-pw",
            "--input",
            &x,
            "--weight",
            &w,
            "--weight-scales",
            &w,
            "--input-scale",
            "1",
            "--input-zero-point",
            "0",
            "--output-scale",
            "1",
            "--output-zero-point",
            "0",
            "--out",
            &y,
        ],
        2,
        "dtype <f4 is not supported here; expected |i1",
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    let d = Dir::new("badargs");
    let (x, w, _) = conv_files(&d);
    let y = d.path("y.npy");
    expect_exit(
        &["conv2d", "--input", &x, "--weight", &w, "--out", &y, "--stride", "1,2,3"],
        2,
        "two separated by a comma",
    );
    expect_exit(
        &["conv2d", "--input", &x, "--weight", &w, "--out", &y, "--activation", "gelu"],
        2,
        "unknown activation",
    );
    expect_exit(
        &["conv2d", "--input", &x, "--weight", &w, "--out", &y, "--groups", "3"],
        2,
        "groups 3 does not divide",
    );
    expect_exit(
        &["conv2d", "--input", &x, "--weight", &w, "--out", &y, "--groups", "2", "--output-padding", "1"],
        2,
        "only valid for a transposed",
    );
    expect_exit(&["conv2d", "--input", &x, "--weight", &w], 2, "--out");
    expect_exit(
        &["quantize", "--input", &x, "--scale", "NaN", "--zero-point", "0", "--out", &y],
        2,
        "scale must be positive and finite, got NaN",
    );
    expect_exit(&["quantize", "--input", &x, "--scale", "inf", "--zero-point", "0", "--out", &y], 2, "got inf");
    expect_exit(
        &["dequantize", "--input", &x, "--scale", "0.1", "--zero-point", "-300", "--out", &y],
        2,
        "zero point must be in [-128, 127], got -300",
    );
    expect_exit(&["bench", "--suite", &d.path("nope.json")], 2, "cannot read suite");
    let bad_suite = d.path("bad.json");
    std::fs::write(&bad_suite, r#"[{"name": "x", "op": "conv3d"}]"#).unwrap();
    expect_exit(&["bench", "--suite", &bad_suite], 2, "invalid suite");
    expect_exit(&["frobnicate"], 2, "unrecognized subcommand");
    // Negative numbers reach the value's parser, which names the argument.
    expect_exit(
        &["conv2d", "--input", &x, "--weight", &w, "--out", &y, "--stride", "-1"],
        2,
        "invalid value '-1' for '--stride",
    );
    expect_exit(
        &["conv2d", "--input", &x, "--weight", &w, "--out", &y, "--groups", "-1"],
        2,
        "invalid value '-1' for '--groups",
    );
    for tolerance in ["NaN", "-1", "inf"] {
        let args = ["conv2d", "--input", &x, "--weight", &w, "--out", &y, "--check", "--tolerance", tolerance];
        expect_exit(&args, 2, "not a finite number >= 0");
    }
    expect_exit(
        &["conv2d", "--input", &x, "--weight", &w, "--out", &y, "--groups", "2", "--padding", "3000000000"],
        2,
        "over the kernels' limit of 2^31 - 1",
    );
    let (code, stdout, _) = run(&["conv2d", "--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("--output-padding"));
}

#[test]
fn check_failure_exits_one() {
    let d = Dir::new("tol");
    let (x, w, _) = conv_files(&d);
    // A tolerance of zero cannot be met by fp32 against an f64 reference.
    expect_exit(
        &[
            "conv2d",
            "--input",
            &x,
            "--weight",
            &w,
            "--groups",
            "2",
            "--out",
            &d.path("y.npy"),
            "--check",
            "--tolerance",
            "0",
        ],
        1,
        "exceeds",
    );
}

#[test]
fn quick_bench_writes_json_with_every_layer() {
    let d = Dir::new("bench");
    let json = d.path("bench.json");
    let (code, stdout, stderr) =
        run(&["bench", "--suite", "quick", "--repeat", "2", "--launches", "2", "--json", &json]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
    let layers = report["layers"].as_array().unwrap();
    let suite: serde_json::Value = serde_json::from_str(include_str!("../../../bench/suites/quick.json")).unwrap();
    assert_eq!(layers.len(), suite.as_array().unwrap().len());
    for l in layers {
        assert!(l["median_ms"].as_f64().unwrap() > 0.0, "{l}");
        assert!(l["gflops"].as_f64().unwrap() > 0.0, "{l}");
        assert!(!l["kernel"].as_str().unwrap().is_empty());
        assert!(stdout.contains(l["name"].as_str().unwrap()));
    }
    assert!(!report["device"]["name"].as_str().unwrap().is_empty());
    assert_eq!(report["dtype"], "float32");
    // f16 tensors: half the minimum bytes of each float layer.
    let json16 = d.path("bench16.json");
    let (code, stdout, stderr) =
        run(&["bench", "--suite", "quick", "--repeat", "1", "--launches", "1", "--dtype", "f16", "--json", &json16]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let report16: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(&json16)).unwrap()).unwrap();
    assert_eq!(report16["dtype"], "float16");
    for (l32, l16) in layers.iter().zip(report16["layers"].as_array().unwrap()) {
        let (b32, b16) = (l32["min_bytes"].as_u64().unwrap(), l16["min_bytes"].as_u64().unwrap());
        if l32["op"] == "q8_conv_pw" {
            assert_eq!(b16, b32, "{l16}");
        } else {
            assert_eq!(2 * b16, b32, "{l16}");
        }
    }
    expect_exit(&["bench", "--suite", "quick", "--dtype", "bf16"], 2, "unknown dtype \"bf16\"");
    let json_cl = d.path("bench_cl.json");
    let args = ["bench", "--suite", "quick", "--repeat", "1", "--launches", "1", "--channels-last", "--json", &json_cl];
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let report_cl: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(&json_cl)).unwrap()).unwrap();
    assert_eq!(
        (&report_cl["memory_format"], &report["memory_format"]),
        (&"channels_last".into(), &"contiguous_format".into())
    );
    // Two rounds: every layer lists both and reports the faster; one round lists none.
    assert!(layers.iter().all(|l| l.get("round_ms").is_none()), "one round lists no rounds");
    let json_rounds = d.path("bench_rounds.json");
    let args = ["bench", "--suite", "quick", "--repeat", "1", "--launches", "1", "--rounds", "2", "--no-reference"];
    let (code, stdout, stderr) = run(&[&args[..], &["--json", &json_rounds]].concat());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let rounds: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(&json_rounds)).unwrap()).unwrap();
    assert_eq!(rounds["rounds"], 2);
    let steps = 2 * layers.len();
    assert!(stderr.contains(&format!("{steps}/{steps} ")), "{stderr}");
    assert!(stdout.contains("fastest of 2 rounds over the suite"), "{stdout}");
    for l in rounds["layers"].as_array().unwrap() {
        let times: Vec<f64> = l["round_ms"].as_array().unwrap().iter().map(|t| t.as_f64().unwrap()).collect();
        assert_eq!(times.len(), 2, "{l}");
        assert_eq!(l["median_ms"].as_f64().unwrap(), times[0].min(times[1]), "{l}");
    }
    expect_exit(&["bench", "--suite", "quick", "--rounds", "0"], 2, "--rounds");
}

/// `bench --kernel` runs that kernel wherever it can run and the planner's elsewhere (a shape it
/// does not take, a device without what it needs), and the JSON says which was forced.
#[test]
fn bench_runs_a_forced_kernel_where_it_can() {
    let d = Dir::new("bench_kernel");
    let suite = d.path("suite.json");
    std::fs::write(
        &suite,
        r#"[
  {"name": "dense", "op": "conv2d", "n": 1, "ic": 8, "oc": 16, "h": 10, "w": 10, "k": 3, "stride": 1, "padding": 1},
  {"name": "dw", "op": "conv2d", "n": 1, "ic": 8, "oc": 8, "h": 10, "w": 12, "k": 3, "stride": 1, "padding": 1, "groups": 8}
]"#,
    )
    .unwrap();
    let kernels = |forced: &str| {
        let json = d.path(&format!("{forced}.json"));
        let args = ["bench", "--suite", &suite, "--repeat", "1", "--launches", "1", "--no-reference"];
        let (code, stdout, stderr) = run(&[&args[..], &["--kernel", forced, "--json", &json]].concat());
        assert_eq!(
            code, 0,
            "{stdout}
{stderr}"
        );
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
        assert_eq!(report["forced_kernel"], forced);
        let layers = report["layers"].as_array().unwrap();
        layers.iter().map(|l| l["kernel"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    // The direct kernel runs both; the tiled depthwise kernel only the depthwise layer.
    assert_eq!(kernels("direct"), ["direct", "direct"]);
    let tiled = kernels("depthwise_tiled");
    assert_eq!(tiled[1], "depthwise_tiled");
    assert_ne!(tiled[0], "depthwise_tiled");
    expect_exit(&["bench", "--suite", &suite, "--kernel", "fastest"], 2, "unknown kernel \"fastest\"");
    // `--k-tile-loads` with a 16-deep tile forced, and alone (the planner's kernels): the JSON
    // names it; an unknown value is a usage error naming it.
    for extra in [&["--kernel", "gemm_k16"][..], &[]] {
        let json = d.path("loads.json");
        let args = ["bench", "--suite", &suite, "--repeat", "1", "--launches", "1", "--no-reference"];
        let (code, stdout, stderr) = run(&[&args[..], extra, &["--k-tile-loads", "ahead", "--json", &json]].concat());
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
        assert_eq!(report["forced_k_tile_loads"], "ahead");
    }
    expect_exit(&["bench", "--suite", &suite, "--k-tile-loads", "late"], 2, "unknown K-tile loads \"late\"");
    // `--tile-order` likewise.
    let json = d.path("order.json");
    let args = ["bench", "--suite", &suite, "--repeat", "1", "--launches", "1", "--no-reference"];
    let (code, stdout, stderr) = run(&[&args[..], &["--tile-order", "m_fastest", "--json", &json]].concat());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
    assert_eq!(report["forced_tile_order"], "m_fastest");
    expect_exit(&["bench", "--suite", &suite, "--tile-order", "diagonal"], 2, "unknown tile order \"diagonal\"");
    // `--q8-kernel` on the int8 layers: the scalar kernel runs; the tensor-core one where the
    // device has cooperative matrices, else the planner's kernel.
    let q8_suite = d.path("q8_suite.json");
    std::fs::write(
        &q8_suite,
        r#"[{"name": "pw", "op": "q8_conv_pw", "n": 1, "ic": 8, "oc": 8, "h": 4, "w": 4, "k": 1}]"#,
    )
    .unwrap();
    let q8_kernel = |forced: &str| {
        let json = d.path(&format!("q8_{forced}.json"));
        let args = ["bench", "--suite", &q8_suite, "--repeat", "1", "--launches", "1", "--no-reference"];
        let (code, stdout, stderr) = run(&[&args[..], &["--q8-kernel", forced, "--json", &json]].concat());
        assert_eq!(code, 0, "{stdout}\n{stderr}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
        assert_eq!(report["forced_q8_kernel"], forced);
        report["layers"][0]["kernel"].as_str().unwrap().to_string()
    };
    assert_eq!(q8_kernel("q8_scalar"), "q8_scalar");
    let coop = q8_kernel("q8_coop");
    // (One tile on 8 channels: R56's 32-pixel tiles are the planner's.)
    assert!(coop == "q8_coop" || coop == "q8_dot4_gemm_n32", "{coop}");
    expect_exit(&["bench", "--suite", &q8_suite, "--q8-kernel", "fastest"], 2, "unknown int8 kernel \"fastest\"");
}

/// A suite with every layer field (rectangular filter, per-axis stride/padding/dilation,
/// output padding, bias, activation, 1D layers, counts and models) runs, and the JSON sums each
/// model's layers × their counts.
#[test]
fn bench_runs_any_layer_shape_and_sums_models() {
    let d = Dir::new("suite");
    let suite = d.path("suite.json");
    std::fs::write(
        &suite,
        r#"[
  {"name": "rect", "op": "conv2d", "n": 1, "ic": 8, "oc": 16, "h": 12, "w": 10, "kh": 3, "kw": 5,
   "stride": [2, 1], "padding": [1, 2], "dilation": [1, 2], "bias": true, "activation": "relu", "count": 3, "model": "toy"},
  {"name": "up", "op": "conv_transpose2d", "n": 1, "ic": 8, "oc": 4, "h": 5, "w": 5, "k": 4, "stride": 2,
   "padding": 1, "output_padding": 1, "activation": "clamp:-1,1", "model": "toy"},
  {"name": "audio", "op": "conv1d", "n": 1, "ic": 8, "oc": 16, "w": 64, "k": 3, "padding": 1, "count": 2, "model": "speech"},
  {"name": "old_style", "op": "conv2d", "n": 1, "ic": 4, "oc": 4, "h": 6, "w": 6, "k": 3, "stride": 1, "padding": 1, "groups": 1}
]"#,
    )
    .unwrap();
    let json = d.path("out.json");
    let (code, stdout, stderr) =
        run(&["bench", "--suite", &suite, "--repeat", "1", "--launches", "1", "--json", &json]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("1, 8→16, 12×10, k3×5 s2,1 p1,2 g1"), "{stdout}");
    assert!(stdout.contains("model toy: ") && stdout.contains("model speech: "), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
    let layers = report["layers"].as_array().unwrap();
    let ms = |name: &str| layers.iter().find(|l| l["name"] == name).unwrap()["median_ms"].as_f64().unwrap();
    let models = report["models"].as_array().unwrap();
    assert_eq!(models.len(), 2, "{report}");
    assert_eq!(models[0]["model"], "toy");
    assert!((models[0]["ms"].as_f64().unwrap() - (3.0 * ms("rect") + ms("up"))).abs() < 1e-9);
    assert_eq!((models[0]["layers"].as_u64(), models[0]["convolutions"].as_u64()), (Some(2), Some(4)));
    assert!((models[1]["ms"].as_f64().unwrap() - 2.0 * ms("audio")).abs() < 1e-9);
    // K parallel convolutions per launch, the slope from 2 to 3, without the reference kernel.
    let args = ["bench", "--suite", &suite, "--repeat", "1", "--launches", "1", "--parallel", "3", "--no-reference"];
    let (code, stdout, stderr) = run(&[&args[..], &["--parallel-from", "2", "--json", &json]].concat());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("parallel ms"), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
    assert_eq!(report["parallel"], serde_json::json!({"k": 3, "from": 2, "launch": "own_compute_pass"}), "{report}");
    for l in report["layers"].as_array().unwrap() {
        assert!(l["parallel_ms"].as_f64().unwrap().is_finite(), "{l}");
        // Timed only when it is the kernel that ran anyway.
        assert!(l["reference_median_ms"].is_null() || l["reference_median_ms"] == l["median_ms"], "{l}");
    }
    expect_exit(&["bench", "--suite", &suite, "--parallel", "1"], 2, "--parallel");
    expect_exit(&["bench", "--suite", &suite, "--parallel", "3", "--parallel-from", "3"], 2, "--parallel-from 3");
    expect_exit(&["bench", "--suite", &suite, "--parallel-from", "2"], 2, "--parallel");
    // A layer the ops reject is a usage error naming it.
    std::fs::write(
        &suite,
        r#"[{"name": "bad", "op": "conv2d", "n": 1, "ic": 3, "oc": 4, "h": 6, "w": 6, "k": 3, "groups": 2}]"#,
    )
    .unwrap();
    expect_exit(&["bench", "--suite", &suite], 2, "layer bad");
}

#[test]
fn plan_lists_the_planners_choices_without_a_gpu() {
    let d = Dir::new("plan");
    let json = d.path("plan.json");
    let (code, stdout, stderr) = run(&["plan", "--suite", "default", "--json", &json]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    // DCGAN's transposed layer at batch 8: 128×128 tiles in 4 K-slices (R53).
    let dcgan = stdout.lines().find(|l| l.starts_with("dcgan_convT_n8")).unwrap();
    assert!(dcgan.contains("8, 256→128, 16×16, k4 s2 p1 g1") && dcgan.contains("gemm_k16/k4"), "{dcgan}");
    assert!(stdout.contains("2 int8 layer(s) left out"), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
    let layers = report["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 14, "{report}");
    let depthwise = layers.iter().find(|l| l["name"] == "mobilenetv2_dw_n8").unwrap();
    assert_eq!((depthwise["kernel"].as_str(), depthwise["split_k"].as_u64()), (Some("depthwise_vec4"), None));
    let dcgan = layers.iter().find(|l| l["name"] == "dcgan_convT_n8").unwrap();
    assert_eq!((dcgan["tile_n"].as_u64(), dcgan["split_k"].as_u64()), (Some(128), Some(4)));
    // The 128-row tiles load each K-tile in its own iteration; kernels without the choice say none.
    assert_eq!(dcgan["k_tile_loads"], "in_iteration");
    assert!(depthwise["k_tile_loads"].is_null(), "{depthwise}");
    // R55: the default suite's inputs are all under 70 MB, so N tiles fastest.
    assert_eq!(dcgan["tile_order"], "n_fastest");
    assert!(depthwise["tile_order"].is_null(), "{depthwise}");
    // A model's layers only; names the suite lacks, and missing suites, are usage errors.
    let (code, stdout, _) = run(&["plan", "--suite", "zoo", "--models", "whisper_base"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().filter(|l| l.starts_with("whisper_base_")).count(), 2, "{stdout}");
    expect_exit(&["plan", "--suite", "zoo", "--models", "nosuch"], 2, "no model \"nosuch\"");
    expect_exit(&["plan", "--suite", &d.path("missing.json")], 2, "cannot read suite");
}

#[test]
fn bench_roofline_reports_ceilings_and_each_layers_share() {
    let d = Dir::new("roofline");
    let json = d.path("roofline.json");
    let (code, stdout, stderr) =
        run(&["bench", "--suite", "quick", "--repeat", "1", "--launches", "1", "--roofline", "--json", &json]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("roofline: fp32 FMA") && stdout.contains("% compute ceiling"), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
    let roofline = &report["roofline"];
    assert!(roofline["fma_gflops"].as_f64().unwrap() > 0.0, "{roofline}");
    assert!(roofline["copy_gbps"].as_f64().unwrap() > 0.0, "{roofline}");
    assert!(roofline["dot4_gops"].as_f64().unwrap() > 0.0, "{roofline}");
    // Cooperative matrices are measured (and checked exact) or said to be unavailable, as on
    // lavapipe; never both, never neither.
    let measured = roofline["coop_gemm_gflops"].as_f64().is_some_and(|r| r > 0.0)
        && roofline["coop_gemm_relative_error"].as_f64().is_some_and(|e| e <= 1e-6);
    assert!(measured != roofline["coop_unavailable"].is_string(), "{roofline}");
    for l in report["layers"].as_array().unwrap() {
        let compute = l["percent_of_compute_ceiling"].as_f64().unwrap();
        let copy = l["percent_of_copy_bandwidth"].as_f64().unwrap();
        // Shares of what was measured on the same device: positive, finite, and a layer's
        // share of the compute ceiling is its GFLOP/s over the FMA rate (the dot4I8Packed rate
        // for int8; lavapipe has no tensor cores).
        assert!(compute > 0.0 && compute.is_finite() && copy > 0.0 && copy.is_finite(), "{l}");
        let ceiling = roofline[if l["op"] == "q8_conv_pw" { "dot4_gops" } else { "fma_gflops" }].as_f64().unwrap();
        let expected = 100.0 * l["gflops"].as_f64().unwrap() / ceiling;
        assert!((compute - expected).abs() <= 1e-9 * expected.max(1.0), "{compute} vs {expected}: {l}");
        assert!(l["min_bytes"].as_u64().unwrap() > 0, "{l}");
    }
    // Without --roofline none of it is there.
    let plain = d.path("plain.json");
    let (code, ..) = run(&["bench", "--suite", "quick", "--repeat", "1", "--launches", "1", "--json", &plain]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&plain)).unwrap()).unwrap();
    assert!(report["roofline"].is_null() && report["layers"][0]["percent_of_compute_ceiling"].is_null());
}

#[test]
fn bench_sweep_times_every_kernel_and_split() {
    let d = Dir::new("sweep");
    let (suite, json) = (d.path("suite.json"), d.path("sweep.json"));
    // K = 64·9 = 576 (72 K-tiles): long enough for the sweep to try every slice count.
    let layer = r#"[{"name": "g", "op": "conv2d", "n": 1, "ic": 64, "oc": 16, "h": 12, "w": 12, "k": 3,
                    "stride": 1, "padding": 1, "groups": 1}]"#;
    std::fs::write(&suite, layer).unwrap();
    let (code, stdout, stderr) =
        run(&["bench", "--suite", &suite, "--repeat", "1", "--launches", "1", "--sweep", "--json", &json]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("sweep g:"), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
    let sweep = report["layers"][0]["sweep"].as_array().unwrap();
    let configs: Vec<(String, u64)> =
        sweep.iter().map(|p| (p["kernel"].as_str().unwrap().to_string(), p["split_k"].as_u64().unwrap())).collect();
    let mut expected = vec![("direct_vec4", 1), ("gemm_small", 1), ("gemm_small_k32", 1)];
    for kernel in ["gemm", "gemm_m64", "gemm_k16", "gemm_m64_k16", "gemm_m64_k32", "gemm_n64_k16", "gemm_n64_k32"] {
        expected.extend([1, 2, 3, 4, 6, 8].map(|splits| (kernel, splits)));
    }
    for expected in expected {
        assert!(configs.contains(&(expected.0.to_string(), expected.1)), "{expected:?} missing from {configs:?}");
    }
    // The reference kernel is timed too; the report lists the fastest first.
    assert!(configs.contains(&("direct".to_string(), 1)), "{configs:?}");
    let times: Vec<f64> = sweep.iter().map(|p| p["median_ms"].as_f64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    // --sweep alone leaves the planner's choice; --tune runs the fastest configuration.
    let planned = report["layers"][0]["kernel"].as_str().unwrap().to_string();
    assert_eq!(planned, "gemm_small_k32", "{report}");
    // --tune-cache: the first run tunes and writes the file, the second takes the layer from it.
    let cache = d.path("tuning.json");
    let tune_cached =
        ["bench", "--suite", &suite, "--repeat", "1", "--launches", "1", "--tune", "--tune-cache", &cache];
    let (code, stdout, stderr) = run(&[&tune_cached[..], &["--json", &json]].concat());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("sweep g:"), "the first run tunes: {stdout}");
    assert!(std::fs::read_to_string(&cache).unwrap().contains("\"entries\""));
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(&json)).unwrap()).unwrap();
    let layer = &report["layers"][0];
    // A tuned layer is labelled with its whole configuration (kernel, K-slices or stream-K).
    assert_eq!(layer["kernel"], layer["sweep"][0]["config"], "{layer}");
    let (code, stdout, stderr) = run(&tune_cached);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stderr.contains("tuning: 1 layers from"), "{stderr}");
    assert!(!stdout.contains("sweep g:"), "the second run does not tune again: {stdout}");
    // A file that is not a tuning is ignored with a warning, and rewritten (a depthwise layer,
    // whose few kernels tune quickly).
    let depthwise = d.path("depthwise.json");
    let layer = r#"[{"name": "dw", "op": "conv2d", "n": 1, "ic": 8, "oc": 8, "h": 12, "w": 12, "k": 3,
                    "stride": 1, "padding": 1, "groups": 8}]"#;
    std::fs::write(&depthwise, layer).unwrap();
    std::fs::write(&cache, "not json").unwrap();
    let (code, _, stderr) =
        run(&["bench", "--suite", &depthwise, "--repeat", "1", "--launches", "1", "--tune", "--tune-cache", &cache]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("ignoring"), "{stderr}");
    assert!(std::fs::read_to_string(&cache).unwrap().contains("\"entries\""));
    // --tune-cache needs --tune.
    let (code, _, stderr) = run(&["bench", "--suite", &suite, "--tune-cache", &cache]);
    assert_eq!(code, 2, "{stderr}");
}
