//! `rpy3 view --serve`: the page on localhost, from a minimal HTTP/1.1
//! server (one connection at a time; the page is all there is to get).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

/// Serves `page` at `http://127.0.0.1:PORT/` until the process is
/// stopped (port 0: one the system picks).  Prints the URL first.
pub fn serve(page: &str, port: u16) -> std::io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let addr = listener.local_addr()?;
    println!("serving the graphs at http://{addr}/ (Ctrl-C to stop)");
    std::io::stdout().flush()?;
    // a failed connection, or a client that goes away, is no reason to
    // stop serving
    for stream in listener.incoming().flatten() {
        let _ = respond(stream, page);
    }
    Ok(())
}

/// The status line, content type and body answering `method path`.
fn answer<'p>(method: &str, path: &str, page: &'p str) -> (&'static str, &'static str, &'p str) {
    let path = path.split(['?', '#']).next().unwrap_or("");
    match (method, path) {
        ("GET" | "HEAD", "/" | "/index.html") => ("200 OK", "text/html; charset=utf-8", page),
        ("GET" | "HEAD", _) => ("404 Not Found", "text/plain; charset=utf-8", "not found\n"),
        _ => (
            "405 Method Not Allowed",
            "text/plain; charset=utf-8",
            "method not allowed\n",
        ),
    }
}

fn respond(stream: TcpStream, page: &str) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // the headers, up to the blank line (none of them matters here)
    let mut line = String::new();
    while reader.read_line(&mut line)? > 0 && line.trim_end() != "" {
        line.clear();
    }
    let mut words = request_line.split_whitespace();
    let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let (status, content_type, body) = answer(method, path, page);
    let mut stream = reader.into_inner();
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        stream.write_all(body.as_bytes())?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_page_is_served() {
        assert_eq!(
            answer("GET", "/", "P"),
            ("200 OK", "text/html; charset=utf-8", "P")
        );
        assert_eq!(answer("GET", "/?x=1", "P").2, "P");
        assert_eq!(answer("HEAD", "/index.html", "P").0, "200 OK");
        assert_eq!(answer("GET", "/favicon.ico", "P").0, "404 Not Found");
        assert_eq!(answer("POST", "/", "P").0, "405 Method Not Allowed");
    }
}
