//! Where the loop's input comes from: a descriptor that the loop reads itself, straight
//! into the endpoint's receive buffer, when `poll` says it is readable; or, for any other
//! `Read`, a reader thread with two buffers it fills in turn.
//!
//! The reader thread is bounded the same way the direct path is: it reads only into a
//! free buffer, and a buffer is free again only once the endpoint has taken all of it.
//! When the endpoint stops taking input (its replies are not being read), the thread
//! stops reading and the pipe fills: the backpressure reaches the peer.

use std::io::{self, Read};
use std::sync::Arc;

use super::shared::{Chunk, Shared};

/// How much the reader thread reads at once.
const READ_CHUNK: usize = 64 * 1024;

/// How many buffers the reader thread fills in turn: one being read into while the
/// loop feeds the other to the endpoint.
pub(super) const READER_BUFFERS: usize = 2;

/// The loop's input.
pub(super) enum Input {
    /// Read by the loop when `poll` says so. A blocking descriptor is fine: after
    /// `poll` reports it readable, one `read` returns what is there without waiting.
    #[cfg(unix)]
    Direct(std::fs::File),
    /// Chunks from the reader thread, through the shared state.
    Thread,
}

#[cfg(unix)]
impl Input {
    /// This process's stdin, read directly where `poll` works on it.
    pub fn stdin() -> Option<Input> {
        use std::os::fd::AsFd;
        let file = std::fs::File::from(io::stdin().as_fd().try_clone_to_owned().ok()?);
        // macOS's poll(2) does not support devices (ttys, /dev/null): they get the
        // reader thread there.
        if cfg!(target_vendor = "apple") {
            use std::os::unix::fs::FileTypeExt;
            if file.metadata().map_or(true, |m| m.file_type().is_char_device()) {
                return None;
            }
        }
        Some(Input::Direct(file))
    }
}

/// Starts the reader thread for `reader`.
pub(super) fn spawn_reader<R: Read + Send + 'static, M: Send + 'static>(
    reader: R,
    shared: Arc<Shared<M>>,
) -> io::Result<()> {
    std::thread::Builder::new().name("mcp-stdio-reader".into()).spawn(move || read_into(reader, &shared))?;
    Ok(())
}

/// The reader thread: blocking reads into free buffers until the end of input, or
/// until the loop stops.
fn read_into<R: Read, M>(mut reader: R, shared: &Shared<M>) {
    loop {
        let mut buf = {
            let mut state = shared.lock();
            loop {
                if state.stopped {
                    return;
                }
                if let Some(buf) = state.free.pop() {
                    break buf;
                }
                state = shared.wait_for_room(state);
            }
        };
        // Allocated on first use, then reused.
        buf.resize(READ_CHUNK, 0);
        let len = loop {
            match reader.read(&mut buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // An error ends the input as end of file does: nothing more can come.
                Err(_) => break 0,
            }
        };
        let mut state = shared.lock();
        if len == 0 {
            state.input_ended = true;
            shared.signal(state);
            return;
        }
        state.chunks.push_back(Chunk { buf, len, taken: 0 });
        shared.signal(state);
    }
}
