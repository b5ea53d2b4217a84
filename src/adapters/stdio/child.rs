//! A server as a child process: spawning it and shutting it down the specified way.

use std::io::{self, BufRead, BufReader};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// What to do with the child's stderr (where MCP servers may log anything).
pub enum StderrMode {
    /// Pass it through to this process's stderr.
    Inherit,
    /// Discard it.
    Discard,
    /// Send each line to a channel.
    Capture(Sender<String>),
}

/// How the child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited by itself after its stdin was closed.
    Exited(ExitStatus),
    /// It needed SIGTERM.
    Terminated(ExitStatus),
    /// It needed SIGKILL.
    Killed(ExitStatus),
}

/// A running server process.
pub struct ChildProcess {
    child: Child,
}

impl ChildProcess {
    /// Spawns `command` with piped stdin and stdout. Returns the process, its stdin (the
    /// loop's writer) and its stdout (the loop's reader).
    pub fn spawn(command: &mut Command, stderr: StderrMode) -> io::Result<(ChildProcess, ChildStdin, ChildStdout)> {
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(match stderr {
            StderrMode::Inherit => Stdio::inherit(),
            StderrMode::Discard => Stdio::null(),
            StderrMode::Capture(_) => Stdio::piped(),
        });
        let mut child = command.spawn()?;
        let stdin = child.stdin.take().ok_or_else(|| io::Error::other("child has no stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| io::Error::other("child has no stdout"))?;
        if let (StderrMode::Capture(lines), Some(err)) = (stderr, child.stderr.take()) {
            std::thread::Builder::new().name("mcp-child-stderr".into()).spawn(move || {
                for line in BufReader::new(err).lines() {
                    let Ok(line) = line else { break };
                    if lines.send(line).is_err() {
                        break;
                    }
                }
            })?;
        }
        Ok((ChildProcess { child }, stdin, stdout))
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Shuts the server down as the MCP specification describes for stdio: its stdin must
    /// already be closed (drop the `ChildStdin`); wait up to `grace` for it to exit, then
    /// send SIGTERM and wait up to `term_grace`, then SIGKILL.
    pub fn shutdown(mut self, grace: Duration, term_grace: Duration) -> io::Result<Exit> {
        if let Some(status) = self.wait_for(grace)? {
            return Ok(Exit::Exited(status));
        }
        self.terminate()?;
        if let Some(status) = self.wait_for(term_grace)? {
            return Ok(Exit::Terminated(status));
        }
        self.child.kill()?;
        Ok(Exit::Killed(self.child.wait()?))
    }

    #[cfg(unix)]
    fn terminate(&mut self) -> io::Result<()> {
        // SIGTERM through kill(1): std has no way to send it, and this keeps the crate
        // free of unsafe code.
        let status = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status()?;
        if status.success() || self.child.try_wait()?.is_some() {
            Ok(())
        } else {
            Err(io::Error::other(format!("kill -TERM failed: {status}")))
        }
    }

    #[cfg(not(unix))]
    fn terminate(&mut self) -> io::Result<()> {
        // No gentler signal exists: TerminateProcess.
        self.child.kill()
    }

    /// Waits up to `limit` for the child to exit, checking at a short interval (std
    /// offers no wait with a timeout).
    fn wait_for(&mut self, limit: Duration) -> io::Result<Option<ExitStatus>> {
        let until = Instant::now() + limit;
        let mut step = Duration::from_millis(1);
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Ok(Some(status));
            }
            let now = Instant::now();
            if now >= until {
                return Ok(None);
            }
            std::thread::sleep(step.min(until - now));
            step = (step * 2).min(Duration::from_millis(50));
        }
    }
}
