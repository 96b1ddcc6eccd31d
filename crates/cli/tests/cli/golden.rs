//! Golden records made by bots (`# bots: ...` on their first line, as `pyramidion sim --records`
//! writes them), in any game crate's `tests/golden/`: `sim` regenerates each from its seed and
//! must write the same text. `UPDATE_EXPECT=1 cargo test -p pyramidion --test golden` rewrites
//! them after an intended change (the one golden mechanism, `pyramidion_testkit::golden`).
use pyramidion_testkit::golden::expect_golden;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bot_made_goldens() -> Vec<(PathBuf, String)> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for krate in std::fs::read_dir(&crates).unwrap() {
        let dir = krate.unwrap().path().join("tests/golden");
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        for file in files {
            let path = file.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            if text.starts_with("# bots: ") {
                out.push((path, text));
            }
        }
    }
    out.sort();
    out
}

/// The value of a `key: value` header line.
fn header<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
        .unwrap_or_else(|| panic!("no '{key}:' line"))
}

#[test]
fn bot_made_golden_records_regenerate_from_their_seeds() {
    let goldens = bot_made_goldens();
    assert!(
        goldens.len() >= 4,
        "{} bot-made golden records",
        goldens.len()
    );
    for (path, text) in goldens {
        let bots = text.lines().next().unwrap()["# bots: ".len()..].to_string();
        let seed = header(&text, "seed");
        let options: Value = serde_json::from_str(header(&text, "options")).unwrap();
        let mut args: Vec<String> = vec![
            "sim".into(),
            "--game".into(),
            header(&text, "game").into(),
            "--bots".into(),
            bots,
            "--games".into(),
            "1".into(),
            "--seed".into(),
            seed.into(),
        ];
        for (key, value) in options.as_object().unwrap() {
            let value = value.as_str().map_or(value.to_string(), str::to_string);
            if key == "players" {
                args.extend(["--players".into(), value]);
            } else {
                args.extend(["--option".into(), format!("{key}={value}")]);
            }
        }
        let out = tempfile_dir(&path);
        args.extend(["--records".into(), out.to_string_lossy().into_owned()]);
        let run = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
            .args(&args)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let written = std::fs::read_dir(&out)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        expect_golden(&path, &std::fs::read_to_string(written).unwrap());
        std::fs::remove_dir_all(&out).unwrap();
    }
}

/// A fresh directory under the target dir for one regenerated record.
fn tempfile_dir(golden: &Path) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "golden-{}",
        golden.file_stem().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
