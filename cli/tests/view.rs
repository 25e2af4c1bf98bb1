//! `rpy3 view` in a real browser: the page is loaded in headless Chromium
//! (Debian's `chromium` package; `RPY3_CHROMIUM` names another binary),
//! which runs its script; the DOM it dumps is what a user sees.  The test
//! fails, rather than skipping, when no Chromium is found.  One test
//! drives it with real mouse and key events through the DevTools protocol
//! (`view_click.py`).  Screenshots are kept under the target directory
//! (`target/tmp/view/`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const PROGRAM: &str = "\
def double(n):
    return n * 2

def caller(x):
    y = double(x)
    if y > 10:
        return y - 1
    return y + 1

def entry_point(argv):
    print(caller(len(argv)))
    return 0
";

fn rpy3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rpy3"))
        .args(args)
        .output()
        .expect("run rpy3")
}

/// A directory of its own for each test, under the target directory.
fn workdir(tag: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("view")
        .join(tag);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The Chromium binary: `RPY3_CHROMIUM`, or the first of the usual names
/// on the PATH.  Panics, saying how to install it, when there is none.
fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("RPY3_CHROMIUM") {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "RPY3_CHROMIUM names {}, which is not a file",
            path.display()
        );
        return path;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "the graph viewer's browser test needs headless Chromium, and none was found \
         (tried chromium, chromium-browser, google-chrome on the PATH): install it with \
         `apt-get install -y chromium` (CI's .ci/run does), or set RPY3_CHROMIUM to its path"
    );
}

/// Chromium, headless, with a profile of its own in `dir`.
fn browser(dir: &Path) -> Command {
    let mut cmd = Command::new(chromium());
    cmd.args([
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--allow-file-access-from-files",
    ])
    .arg(format!("--user-data-dir={}", dir.join("profile").display()));
    cmd
}

fn file_url(page: &Path, fragment: &str) -> String {
    format!(
        "file://{}{fragment}",
        page.canonicalize().unwrap().display()
    )
}

/// The DOM after the page's script ran, as Chromium serialises it.
fn dump_dom(dir: &Path, page: &Path, fragment: &str) -> String {
    let out = browser(dir)
        .arg("--dump-dom")
        .arg(file_url(page, fragment))
        .stdin(Stdio::null())
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success() && dom.contains("</html>"),
        "chromium --dump-dom failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    dom
}

/// The rendered part of the page: `<main>` (the function shown and its
/// graph), without the script, which names everything it can draw.
fn main_part(dom: &str) -> &str {
    let start = dom.find("<main>").expect("a <main> element");
    let end = dom.find("</main>").expect("the end of <main>");
    &dom[start..end]
}

/// The text between `start` and the next `end` after it.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = s.find(start)? + start.len();
    let len = s[from..].find(end)?;
    Some(&s[from..from + len])
}

/// The rendered operations of the graph: `(result, opname, args)` of
/// each `<div class="op">`, tags removed.
fn rendered_ops(main: &str) -> Vec<String> {
    main.split("<div class=\"op")
        .skip(1)
        .map(|chunk| {
            let line = &chunk[..chunk.find("</div>").unwrap()];
            let line = &line[line.find('>').unwrap() + 1..];
            let mut text = String::new();
            let mut in_tag = false;
            for c in line.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            text.replace("&gt;", ">")
                .replace("&lt;", "<")
                .replace("&amp;", "&")
        })
        .collect()
}

fn write_page(dir: &Path, args: &[&str]) -> PathBuf {
    let source = dir.join("prog.py");
    std::fs::write(&source, PROGRAM).unwrap();
    let page = dir.join("page.html");
    let mut words = vec!["view", source.to_str().unwrap()];
    words.extend_from_slice(args);
    words.extend_from_slice(&["-o", page.to_str().unwrap()]);
    let o = rpy3(&words);
    assert!(
        o.status.success(),
        "rpy3 view failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("wrote "));
    page
}

#[test]
fn the_page_navigates_from_a_caller_to_its_callee_in_chromium() {
    let dir = workdir("navigate");
    let page = write_page(&dir, &["caller", "3"]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("<script src") && !html.contains("<link"));

    // the caller, annotated: its call of double is a link to double
    let dom = dump_dom(&dir, &page, "#fn=caller&stage=annotate");
    assert!(dom.contains(r#"data-fn="caller""#), "{dom}");
    assert!(dom.contains(r#"data-stage="annotate""#));
    let main = main_part(&dom);
    assert!(main.contains(r#"<h2 id="fn-name">caller</h2>"#), "{main}");
    let ops = rendered_ops(main);
    assert!(
        ops.iter()
            .any(|op| op.contains("simple_call(<function double>, x_0)")
                && op.ends_with("\u{2192} double")),
        "{ops:?}"
    );
    assert!(ops.iter().any(|op| op.contains(" = gt(")), "{ops:?}");
    // blocks are laid out and linked: the start block, the return block,
    // SVG paths for the links, the switch on the comparison
    assert!(main.contains(r#"class="block kind-block""#));
    assert!(main.contains(r#"class="block kind-return""#));
    assert!(main.contains("<svg class=\"links\""));
    assert!(main.matches("<path d=\"M ").count() >= 3, "{main}");
    assert!(main.contains("<div class=\"switch\">switch "));
    // annotations on hover
    assert!(main.contains(r#"<span class="v" title="int"#), "{main}");
    // the stage switch keeps the function
    assert!(
        dom.contains(r##"href="#fn=caller&amp;stage=rtype""##),
        "{dom}"
    );

    // follow the call's link, as a click does
    let href = between(main, r#"<a class="call" href=""#, "\"")
        .expect("a call link")
        .replace("&amp;", "&");
    assert_eq!(href, "#fn=double&stage=annotate");
    let dom = dump_dom(&dir, &page, &href);
    let main = main_part(&dom);
    assert!(main.contains(r#"<h2 id="fn-name">double</h2>"#), "{main}");
    let ops = rendered_ops(main);
    assert_eq!(ops, ["v1 = mul(n_0, 2)"], "{main}");
    assert!(dom.contains(r##"<a class="current" href="#fn=double&amp;stage=annotate""##));

    // the low-level graphs: the direct_call leads to double's low-level
    // graph, whose variables carry low-level types
    let dom = dump_dom(&dir, &page, "#fn=caller&stage=rtype");
    let main = main_part(&dom);
    let ops = rendered_ops(main);
    assert!(
        ops.iter()
            .any(|op| op.contains("direct_call(") && op.ends_with("\u{2192} double")),
        "{ops:?}"
    );
    let dom = dump_dom(&dir, &page, "#fn=double&stage=rtype");
    let main = main_part(&dom);
    let ops = rendered_ops(main);
    assert!(ops.iter().any(|op| op.contains("int_mul")), "{ops:?}");
    assert!(main.contains(r#"title="Signed""#), "{main}");

    // the screenshot, kept as the test's artifact
    let shot = dir.join("caller-annotate.png");
    let out = browser(&dir)
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1280,900")
        .arg(file_url(&page, "#fn=caller&stage=annotate"))
        .stdin(Stdio::null())
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&shot).expect("the screenshot was written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000);
    eprintln!("screenshot: {}", shot.display());
}

/// Real input events through the DevTools protocol (`view_click.py`):
/// a mouse click on a call's link, on the rtype button, "/" and typing
/// in the search box, Enter.
#[test]
fn clicks_and_keys_in_chromium() {
    let dir = workdir("click");
    let page = write_page(&dir, &["caller", "3"]);
    let shot = dir.join("double-after-click.png");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/view_click.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(chromium())
        .arg(file_url(&page, "#fn=caller&stage=annotate"))
        .arg(dir.join("profile"))
        .arg(&shot)
        .stdin(Stdio::null())
        .output()
        .expect("run python3");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let steps: Vec<&str> = text.lines().filter(|l| l.starts_with("STEP ")).collect();
    assert_eq!(steps.len(), 5, "{text}");
    let expect = |i: usize, parts: &[&str]| {
        for part in parts {
            assert!(
                steps[i].contains(part),
                "step {i} lacks {part}: {}",
                steps[i]
            );
        }
    };
    expect(
        0,
        &[
            r#""step": "load""#,
            r#""fn": "caller""#,
            r#""stage": "annotate""#,
        ],
    );
    // the click on `→ double` shows double's graph
    expect(
        1,
        &[
            r#""fn": "double""#,
            r##""hash": "#fn=double&stage=annotate""##,
            r#""ops": ["v1 = mul(n_0, 2)"]"#,
            r#""shown": "double""#,
        ],
    );
    // the rtype button keeps the function
    expect(
        2,
        &[
            r#""stage": "rtype""#,
            r#""fn": "double""#,
            r#""ops": ["v1 = int_mul_ovf(n_0, 2)"]"#,
        ],
    );
    // "/" focuses the search box (and is not typed into it)
    expect(3, &[r#""focused": "search""#, r#""listed": ["caller"]"#]);
    // Enter opens the first match
    expect(
        4,
        &[
            r#""fn": "caller""#,
            r#""stage": "rtype""#,
            r#"direct_call(<* fn double>, x_0) \u2192 double"#,
        ],
    );
    let png = std::fs::read(&shot).expect("the screenshot was written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
}

#[test]
fn the_search_and_a_missing_function_in_chromium() {
    let dir = workdir("search");
    let page = write_page(&dir, &["caller", "3"]);
    // a search given in the fragment filters the list
    let dom = dump_dom(&dir, &page, "#fn=caller&stage=flow&q=doub");
    let list = between(&dom, "<ul id=\"fnlist\">", "</ul>").unwrap();
    let visible: Vec<&str> = list
        .split("<li")
        .skip(1)
        .filter(|li| !li.starts_with(" hidden"))
        .collect();
    assert_eq!(visible.len(), 1, "{list}");
    assert!(visible[0].contains(">double</a>"), "{list}");
    assert!(dom.contains("1 of 2 functions"), "{dom}");
    // a function the stage has no graph of: the entry, and a notice
    let dom = dump_dom(&dir, &page, "#fn=nosuch&stage=flow");
    let main = main_part(&dom);
    assert!(main.contains(r#"<h2 id="fn-name">caller</h2>"#), "{main}");
    assert!(
        main.contains("'nosuch' has no graph at stage flow"),
        "{main}"
    );
}

#[test]
fn a_program_s_entry_point_is_viewed_without_a_function_name() {
    let dir = workdir("program");
    let page = write_page(&dir, &[]);
    // the entry graph is the driver's wrapper setting sys.argv, which
    // calls the program's entry_point
    let dom = dump_dom(&dir, &page, "#stage=annotate");
    let main = main_part(&dom);
    let shown = between(main, "<h2 id=\"fn-name\">", "</h2>").unwrap();
    assert!(shown.ends_with("entry_point"), "{main}");
    assert!(main.contains(r##"<a class="call" href="#fn=entry_point&amp;stage=annotate""##));
    let list = between(&dom, "<ul id=\"fnlist\">", "</ul>").unwrap();
    for name in ["caller", "double", "entry_point"] {
        assert!(list.contains(&format!(">{name}</a>")), "{list}");
    }
    let dom = dump_dom(&dir, &page, "#fn=entry_point&stage=annotate");
    let ops = rendered_ops(main_part(&dom));
    assert!(
        ops.iter()
            .any(|op| op.contains("simple_call(<function caller>")
                && op.ends_with("\u{2192} caller")),
        "{ops:?}"
    );
}

#[test]
fn serve_answers_with_the_page() {
    let dir = workdir("serve");
    let source = dir.join("prog.py");
    std::fs::write(&source, PROGRAM).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rpy3"))
        .args(["view", source.to_str().unwrap(), "double", "4"])
        .args(["--serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("run rpy3 view --serve");
    let mut stdout = child.stdout.take().unwrap();
    let mut line = Vec::new();
    let mut byte = [0u8];
    while stdout.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&line).to_string();
    let result = std::panic::catch_unwind(|| {
        let url = between(&line, "http://", "/").expect("a URL on the first line");
        let mut conn = std::net::TcpStream::connect(url).unwrap();
        conn.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .unwrap();
        let mut response = String::new();
        conn.read_to_string(&mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
        assert!(response.contains("Content-Type: text/html"));
        assert!(response.contains("<!DOCTYPE html>") && response.contains("\"key\":\"double\""));
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn a_failing_annotation_still_writes_the_flow_graphs() {
    let dir = workdir("failing");
    let source = dir.join("bad.py");
    std::fs::write(&source, "def f(x):\n    return x + 'a'\n").unwrap();
    let page = dir.join("bad.html");
    let o = rpy3(&[
        "view",
        source.to_str().unwrap(),
        "f",
        "1",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("annotation error"), "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"key\":\"f\""));
    assert!(html.contains("annotation error"));
}
