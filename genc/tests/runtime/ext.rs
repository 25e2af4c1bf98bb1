//! The external functions and the text streams against the llinterp's
//! `Streams` and `external.rs`.

use rpy3_llinterp::world::{Errno, Streams, World};

use super::*;

/// A world recording what reaches descriptors 1 and 2, in order, as the
/// driver's single output file does.
#[derive(Default)]
struct Recorder {
    output: Vec<u8>,
}

impl World for Recorder {
    fn write(&mut self, fd: i64, data: &[u8]) -> Result<i64, Errno> {
        assert!(fd == 1 || fd == 2);
        self.output.extend_from_slice(data);
        Ok(data.len() as i64)
    }
    fn read(&mut self, _fd: i64, _n: usize) -> Result<Vec<u8>, Errno> {
        Ok(Vec::new())
    }
    fn open(&mut self, _path: &str, _flags: i64, _mode: i64) -> Result<i64, Errno> {
        Err(1)
    }
    fn close(&mut self, _fd: i64) -> Result<(), Errno> {
        Ok(())
    }
    fn getenv(&mut self, _name: &str) -> Option<String> {
        None
    }
    fn time(&mut self) -> f64 {
        0.0
    }
    fn monotonic(&mut self) -> f64 {
        0.0
    }
    fn process_time(&mut self) -> f64 {
        0.0
    }
    fn sleep(&mut self, _seconds: f64) {}
    fn isatty(&mut self, _fd: i64) -> bool {
        false
    }
}

fn random_text(rng: &mut Rng) -> String {
    let pieces = [
        "a", "bc", "hello", " ", "\n", "é", "中文", "😀", "\u{7f}", "\u{0}", "x\ny",
    ];
    let n = if rng.below(10) == 0 {
        2000 + rng.below(3000)
    } else {
        rng.below(8)
    };
    (0..n)
        .map(|_| pieces[rng.below(pieces.len() as u64) as usize])
        .collect()
}

#[test]
fn streams_buffer_and_interleave_as_the_llinterp() {
    let mut rng = Rng(0x5EED_0000_0000_0001);
    for round in 0..6 {
        let mut streams = Streams::default();
        let mut world = Recorder::default();
        let mut e = Expect::default();
        for _ in 0..300 {
            match rng.below(10) {
                0..=4 => {
                    let fd = 1 + rng.below(2) as i64;
                    let text = random_text(&mut rng);
                    streams.write(&mut world, fd, text.as_bytes()).unwrap();
                    e.push(format!("sw {fd} {}", cps(&text)), "R".into());
                }
                5 => {
                    let fd = 1 + rng.below(2) as i64;
                    streams.flush(&mut world, fd).unwrap();
                    e.push(format!("sf {fd}"), "R".into());
                }
                6 | 7 => {
                    let fd = 1 + rng.below(2) as i64;
                    let bytes: Vec<u8> = (0..rng.below(20)).map(|_| rng.next() as u8).collect();
                    let n = world.write(fd, &bytes).unwrap();
                    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:x}")).collect();
                    let arg = if hex.is_empty() {
                        "-".into()
                    } else {
                        hex.join(",")
                    };
                    e.push(format!("ow {fd} {arg}"), format!("R {n}"));
                }
                8 => {
                    // not encodable, or not a stream: nothing written
                    e.push(
                        format!("sw 1 {}", cps("ab") + ",d800"),
                        format!("E {VALUE}"),
                    );
                    e.push(format!("sw 2 {},dfff,41", cps("\n")), format!("E {VALUE}"));
                    e.push("sw 1 110000".into(), format!("E {VALUE}"));
                    e.push(format!("sw 3 {}", cps("x")), format!("E {OS_ERROR}"));
                    e.push("sf 0".into(), format!("E {OS_ERROR}"));
                }
                _ => {
                    // a byte of os.write is the low byte of its item
                    let n = world.write(1, &[0x41]).unwrap();
                    e.push("ow 1 141".into(), format!("R {n}"));
                }
            }
        }
        let exit = round % 2 == 1;
        if exit {
            e.push(format!("exit {}", 256 + round), String::new());
        }
        streams.flush_all(&mut world);
        let mut text = e.commands.join("\n");
        text.push('\n');
        let r = run_full(driver(), &text, b"", &[]);
        assert_eq!(r.status, Some(if exit { round } else { 0 }));
        let n = e.want.len() - usize::from(exit);
        assert_eq!(r.results[..], e.want[..n], "results of round {round}");
        assert!(
            r.output == world.output,
            "round {round}: the output differs from the llinterp's at byte {}",
            r.output
                .iter()
                .zip(&world.output)
                .position(|(a, b)| a != b)
                .unwrap_or(r.output.len().min(world.output.len()))
        );
    }
}

#[test]
fn stdout_is_line_buffered_on_a_terminal() {
    let r = run_full(driver(), "tty\n", b"", &[]);
    assert_eq!(r.status, Some(0));
    if r.results == ["R unavailable"] {
        eprintln!("no pseudo-terminal here: line buffering untested");
        return;
    }
    // nothing after "ab"; "abc\n" (the terminal writes \r\n) after "c\n"
    assert_eq!(r.results, ["R 0 61,62,63,d,a"]);
}

#[test]
fn readline_decodes_lines_as_the_llinterp() {
    let mut stdin = b"first line\nsecond \xc3\xa9\xe4\xb8\xad\n".to_vec();
    stdin.extend_from_slice(
        b"bad \xff \xc3 \xe4\xb8 \xed\xa0\x80 \xf0\x9f\x98 \xf4\x90\x80\x80 \xc0\xaf end\n",
    );
    stdin.extend(std::iter::repeat_n(b'z', 20000));
    stdin.extend_from_slice("\n😀\nlast without newline".as_bytes());
    let mut want: Vec<String> = Vec::new();
    let mut commands = String::from("sw 1 70,3e\n");
    want.push("R".into());
    let mut rest = &stdin[..];
    loop {
        let line = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => &rest[..=i],
            None => rest,
        };
        rest = &rest[line.len()..];
        commands.push_str("rl\n");
        want.push(format!("S {}", cps(&String::from_utf8_lossy(line))));
        if line.is_empty() {
            break;
        }
    }
    let r = run_full(driver(), &commands, &stdin, &[]);
    assert_eq!(r.status, Some(0));
    assert_eq!(r.results, want);
    // stdout was flushed before reading
    assert_eq!(r.output, b"p>");
}

#[test]
fn os_functions_behave_as_the_llinterp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("file é.txt");
    let p = cps(path.to_str().unwrap());
    // Linux values of O_RDONLY, O_WRONLY | O_CREAT | O_TRUNC
    let (rdonly, wronly_creat) = (0, 1 | 64 | 512);
    let commands = [
        format!("open {p} {wronly_creat} 420"),
        "ow 3 68,69,0,ff,100".into(),
        "close 3".into(),
        "close 3".into(),
        format!("open {p} {rdonly} 0"),
        "or 3 2".into(),
        "or 3 100".into(),
        "or 3 100".into(),
        "or 3 -1".into(),
        "close 3".into(),
        "or 99 1".into(),
        "ow 99 41".into(),
        "ow 4294967297 41".into(),
        "close -5".into(),
        format!("open {} {rdonly} 0", cps("/nonexistent/x")),
        format!("open {p},d800 {rdonly} 0"),
        format!("open {p},0 {rdonly} 0"),
        format!("open {p} 4294967296 0"),
        format!("open {p} {rdonly} -1"),
        format!("getenv {}", cps("RPY3_TEST_VAR")),
        format!("getenv {}", cps("RPY3_TEST_UNSET")),
        format!("getenv {}", cps("RPY3_TEST_BAD")),
        format!("getenv {},d800", cps("RPY3_TEST_VAR")),
        format!("getenv {},0", cps("RPY3_TEST_VAR")),
        "clock".into(),
        format!("sleep {}", fhex(-1.0)),
        format!("sleep {}", fhex(f64::NAN)),
        format!("sleep {}", fhex(f64::INFINITY)),
        format!("sleep {}", fhex(0.0)),
        format!("sleep {}", fhex(0.2)),
        "epipe".into(),
        "sw 1 68,69".into(),
        "sw 2 65".into(),
        "exit 7".into(),
    ];
    let want = [
        "R 3",
        "R 5",
        "R",
        &format!("E {OS_ERROR}"),
        "R 3",
        "B 68,69",
        "B 0,ff,0",
        "B -",
        &format!("E {VALUE}"),
        "R",
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {VALUE}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("S {}", cps("héllo 😀")),
        "N",
        "N",
        &format!("E {VALUE}"),
        "N",
        "R ok",
        &format!("E {VALUE}"),
        &format!("E {VALUE}"),
        "R slept",
        "R slept",
        "R slept",
        "R E5 E5",
        "R",
        "R",
    ];
    let mut text = commands.join("\n");
    text.push('\n');
    let r = run_full(
        driver(),
        &text,
        b"",
        &[
            ("RPY3_TEST_VAR", "héllo 😀".as_bytes()),
            ("RPY3_TEST_BAD", b"\xff\xfe"),
        ],
    );
    assert_eq!(r.status, Some(7), "{}", r.stderr_note);
    assert_eq!(r.results[..], want[..]);
    assert_eq!(r.output, b"hie", "sys.exit flushes stdout, then stderr");
    assert_eq!(std::fs::read(&path).unwrap(), b"hi\0\xff\0");
}
