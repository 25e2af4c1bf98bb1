//! The outside world of an interpreted program: every function of the
//! external-function table ([`rpy3_model::extfunc`]) reaches the operating
//! system through the [`World`] trait, so tests can capture what a program
//! writes ([`CapturedWorld`]) while `rpy3 run` uses the real one
//! ([`RealWorld`]).
//!
//! The buffering of the text streams (what CPython's `sys.stdout` and
//! `sys.stderr` do) is [`Streams`], shared by every world: stdout is
//! flushed at exit, by `flush`, and when its buffer passes
//! [`STDOUT_BUFFER`] bytes (or at each newline when it is a terminal);
//! stderr is line-buffered.  `os.write` bypasses the buffers, as in
//! CPython.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The size of stdout's buffer when it is not a terminal (CPython's
/// `io.DEFAULT_BUFFER_SIZE`).
pub const STDOUT_BUFFER: usize = 8192;

/// An `errno` value.
pub type Errno = i32;

/// The operating system as a program sees it.
pub trait World: Send {
    /// `write(2)`: the number of bytes written.
    fn write(&mut self, fd: i64, data: &[u8]) -> Result<i64, Errno>;
    /// `read(2)` of at most `n` bytes.
    fn read(&mut self, fd: i64, n: usize) -> Result<Vec<u8>, Errno>;
    /// `open(2)`.
    fn open(&mut self, path: &str, flags: i64, mode: i64) -> Result<i64, Errno>;
    /// `close(2)`.
    fn close(&mut self, fd: i64) -> Result<(), Errno>;
    /// An environment variable.
    fn getenv(&mut self, name: &str) -> Option<String>;
    /// Seconds since the epoch.
    fn time(&mut self) -> f64;
    /// A monotonic clock in seconds (`perf_counter`, `monotonic`).
    fn monotonic(&mut self) -> f64;
    /// CPU time of the process in seconds.
    fn process_time(&mut self) -> f64;
    /// Sleeps.
    fn sleep(&mut self, seconds: f64);
    /// Whether `fd` is a terminal (stdout is then line-buffered).
    fn isatty(&mut self, fd: i64) -> bool;
}

fn errno() -> Errno {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// The real operating system.
pub struct RealWorld {
    start: Instant,
}

impl Default for RealWorld {
    fn default() -> Self {
        RealWorld {
            start: Instant::now(),
        }
    }
}

impl RealWorld {
    /// The real world.
    pub fn new() -> RealWorld {
        RealWorld::default()
    }
}

fn c_int(fd: i64) -> Result<libc::c_int, Errno> {
    libc::c_int::try_from(fd).map_err(|_| libc::EBADF)
}

impl World for RealWorld {
    fn write(&mut self, fd: i64, data: &[u8]) -> Result<i64, Errno> {
        let fd = c_int(fd)?;
        // SAFETY: `data` is a live slice of `data.len()` bytes.
        let n = unsafe { libc::write(fd, data.as_ptr().cast(), data.len()) };
        if n < 0 {
            Err(errno())
        } else {
            Ok(n as i64)
        }
    }

    fn read(&mut self, fd: i64, n: usize) -> Result<Vec<u8>, Errno> {
        let fd = c_int(fd)?;
        let mut buf = vec![0u8; n];
        // SAFETY: `buf` has room for `n` bytes.
        let got = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), n) };
        if got < 0 {
            return Err(errno());
        }
        buf.truncate(got as usize);
        Ok(buf)
    }

    fn open(&mut self, path: &str, flags: i64, mode: i64) -> Result<i64, Errno> {
        let Ok(cpath) = std::ffi::CString::new(path) else {
            return Err(libc::EINVAL);
        };
        let flags = c_int(flags).map_err(|_| libc::EINVAL)? | libc::O_CLOEXEC;
        let mode = libc::c_uint::try_from(mode).map_err(|_| libc::EINVAL)?;
        // SAFETY: `cpath` is a NUL-terminated string that outlives the call.
        let fd = unsafe { libc::open(cpath.as_ptr(), flags, mode) };
        if fd < 0 {
            Err(errno())
        } else {
            Ok(fd as i64)
        }
    }

    fn close(&mut self, fd: i64) -> Result<(), Errno> {
        let fd = c_int(fd)?;
        // SAFETY: closing a descriptor number has no memory effects.
        if unsafe { libc::close(fd) } < 0 {
            Err(errno())
        } else {
            Ok(())
        }
    }

    fn getenv(&mut self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }

    fn time(&mut self) -> f64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0)
    }

    fn monotonic(&mut self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    fn process_time(&mut self) -> f64 {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec to fill.
        unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    }

    fn sleep(&mut self, seconds: f64) {
        if seconds > 0.0 && seconds.is_finite() {
            std::thread::sleep(std::time::Duration::from_secs_f64(seconds.min(1e9)));
        }
    }

    fn isatty(&mut self, fd: i64) -> bool {
        // SAFETY: isatty only inspects the descriptor.
        c_int(fd).is_ok_and(|fd| unsafe { libc::isatty(fd) } == 1)
    }
}

/// What a [`CapturedWorld`] holds: what the program wrote to descriptors
/// 1 and 2, what descriptor 0 still has to give, the environment, and a
/// clock that only moves when the program sleeps.
#[derive(Default)]
pub struct Captured {
    /// Bytes written to descriptor 1.
    pub stdout: Vec<u8>,
    /// Bytes written to descriptor 2.
    pub stderr: Vec<u8>,
    /// What descriptor 0 still has to give.
    pub stdin: Vec<u8>,
    /// The environment.
    pub env: HashMap<String, String>,
    /// The clock, in seconds.
    pub clock: f64,
}

/// A world that captures descriptors 0 to 2 (see [`Captured`]); files are
/// the real ones.  Clones share the same capture, so a test keeps one
/// clone to read what the program wrote.
#[derive(Clone, Default)]
pub struct CapturedWorld {
    /// The shared capture.
    pub captured: Arc<Mutex<Captured>>,
}

impl CapturedWorld {
    /// An empty captured world.
    pub fn new() -> CapturedWorld {
        CapturedWorld::default()
    }

    fn with<T>(&self, f: impl FnOnce(&mut Captured) -> T) -> T {
        let mut c = self.captured.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut c)
    }

    /// What was written to stdout so far.
    pub fn stdout(&self) -> Vec<u8> {
        self.with(|c| c.stdout.clone())
    }

    /// What was written to stderr so far.
    pub fn stderr(&self) -> Vec<u8> {
        self.with(|c| c.stderr.clone())
    }
}

impl World for CapturedWorld {
    fn write(&mut self, fd: i64, data: &[u8]) -> Result<i64, Errno> {
        match fd {
            1 => self.with(|c| c.stdout.extend_from_slice(data)),
            2 => self.with(|c| c.stderr.extend_from_slice(data)),
            _ => return RealWorld::new().write(fd, data),
        }
        Ok(data.len() as i64)
    }

    fn read(&mut self, fd: i64, n: usize) -> Result<Vec<u8>, Errno> {
        if fd != 0 {
            return RealWorld::new().read(fd, n);
        }
        Ok(self.with(|c| {
            let n = n.min(c.stdin.len());
            c.stdin.drain(..n).collect()
        }))
    }

    fn open(&mut self, path: &str, flags: i64, mode: i64) -> Result<i64, Errno> {
        RealWorld::new().open(path, flags, mode)
    }

    fn close(&mut self, fd: i64) -> Result<(), Errno> {
        if (0..=2).contains(&fd) {
            return Ok(());
        }
        RealWorld::new().close(fd)
    }

    fn getenv(&mut self, name: &str) -> Option<String> {
        self.with(|c| c.env.get(name).cloned())
    }

    fn time(&mut self) -> f64 {
        self.with(|c| c.clock)
    }

    fn monotonic(&mut self) -> f64 {
        self.with(|c| c.clock)
    }

    fn process_time(&mut self) -> f64 {
        self.with(|c| c.clock)
    }

    fn sleep(&mut self, seconds: f64) {
        if seconds > 0.0 {
            self.with(|c| c.clock += seconds);
        }
    }

    fn isatty(&mut self, _fd: i64) -> bool {
        false
    }
}

/// The buffers of the text streams stdout (1) and stderr (2), and what
/// was read ahead of stdin (0).
#[derive(Default)]
pub struct Streams {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    stdin: Vec<u8>,
    /// Whether stdout is line-buffered (a terminal); asked once.
    stdout_tty: Option<bool>,
}

impl Streams {
    /// Writes text to stream `fd` (1 or 2), flushing as CPython would.
    pub fn write(&mut self, world: &mut dyn World, fd: i64, text: &[u8]) -> Result<(), Errno> {
        match fd {
            1 => {
                self.stdout.extend_from_slice(text);
                let tty = *self.stdout_tty.get_or_insert_with(|| world.isatty(1));
                if self.stdout.len() >= STDOUT_BUFFER || (tty && text.contains(&b'\n')) {
                    self.flush(world, 1)?;
                }
            }
            2 => {
                self.stderr.extend_from_slice(text);
                if text.contains(&b'\n') {
                    self.flush(world, 2)?;
                }
            }
            _ => return Err(libc::EBADF),
        }
        Ok(())
    }

    /// Writes out what stream `fd` holds.
    pub fn flush(&mut self, world: &mut dyn World, fd: i64) -> Result<(), Errno> {
        let buf = match fd {
            1 => &mut self.stdout,
            2 => &mut self.stderr,
            _ => return Err(libc::EBADF),
        };
        let mut done = 0;
        while done < buf.len() {
            match world.write(fd, &buf[done..]) {
                Ok(n) if n > 0 => done += n as usize,
                Ok(_) => break,
                Err(e) if e == libc::EINTR => continue,
                Err(e) => {
                    buf.clear();
                    return Err(e);
                }
            }
        }
        buf.clear();
        Ok(())
    }

    /// One line of stdin with its newline (empty at end of file).
    pub fn readline(&mut self, world: &mut dyn World) -> Result<Vec<u8>, Errno> {
        loop {
            if let Some(i) = self.stdin.iter().position(|&b| b == b'\n') {
                return Ok(self.stdin.drain(..=i).collect());
            }
            let more = world.read(0, STDOUT_BUFFER)?;
            if more.is_empty() {
                return Ok(std::mem::take(&mut self.stdin));
            }
            self.stdin.extend_from_slice(&more);
        }
    }

    /// Flushes both streams (at exit).
    pub fn flush_all(&mut self, world: &mut dyn World) {
        let _ = self.flush(world, 1);
        let _ = self.flush(world, 2);
    }
}
