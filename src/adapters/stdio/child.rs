//! A server as a child process: spawning it and shutting it down the specified way.
//!
//! Signals are sent with `kill(2)` through rustix's safe wrapper, not by spawning
//! `kill(1)`: nothing to fail on a system without it, or with too many processes to
//! spawn another.

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
    ///
    /// Every path ends with the child reaped: a step that fails (a signal that cannot be
    /// sent, a wait that errs) moves on to the next one, and the last one, SIGKILL and a
    /// blocking wait, always runs. `Err` only when that final wait fails (the child was
    /// reaped elsewhere).
    pub fn shutdown(self, grace: Duration, term_grace: Duration) -> io::Result<Exit> {
        self.shutdown_with(grace, term_grace, Self::terminate)
    }

    /// [`shutdown`](Self::shutdown) with the SIGTERM step given, so that tests can make
    /// it fail.
    fn shutdown_with(
        mut self,
        grace: Duration,
        term_grace: Duration,
        mut terminate: impl FnMut(&mut Self) -> io::Result<()>,
    ) -> io::Result<Exit> {
        if let Ok(Some(status)) = self.wait_for(grace) {
            return Ok(Exit::Exited(status));
        }
        if terminate(&mut self).is_ok()
            && let Ok(Some(status)) = self.wait_for(term_grace)
        {
            return Ok(Exit::Terminated(status));
        }
        // Fails only if the child has already been reaped, which the wait then reports.
        let _ = self.child.kill();
        Ok(Exit::Killed(self.child.wait()?))
    }

    #[cfg(unix)]
    fn terminate(&mut self) -> io::Result<()> {
        // A zombie still has its pid until it is reaped, and only `wait` reaps it: the
        // pid cannot have been reused while `self.child` is unreaped.
        let pid = rustix::process::Pid::from_child(&self.child);
        Ok(rustix::process::kill_process(pid, rustix::process::Signal::TERM)?)
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn reaped(pid: u32) -> bool {
        // kill(pid, 0) succeeds on a zombie: only a reaped process is gone.
        let pid = rustix::process::Pid::from_raw(pid as i32).unwrap();
        rustix::process::test_kill_process(pid).is_err()
    }

    fn spawn(script: &str) -> ChildProcess {
        let (child, stdin, _stdout) =
            ChildProcess::spawn(Command::new("sh").args(["-c", script]), StderrMode::Discard).unwrap();
        drop(stdin);
        child
    }

    #[test]
    fn each_step_is_taken_only_when_the_one_before_did_not_end_the_child() {
        let short = Duration::from_millis(100);
        let exited = spawn("cat >/dev/null");
        assert!(matches!(exited.shutdown(Duration::from_secs(5), short), Ok(Exit::Exited(s)) if s.success()));
        let terminated = spawn("exec sleep 30");
        let pid = terminated.id();
        assert!(matches!(terminated.shutdown(short, Duration::from_secs(5)), Ok(Exit::Terminated(_))));
        assert!(reaped(pid));
        // Ignored signals stay ignored across exec: this sleep ignores SIGTERM.
        let stubborn = spawn("trap '' TERM; exec sleep 30");
        let pid = stubborn.id();
        assert!(matches!(stubborn.shutdown(short, short), Ok(Exit::Killed(_))));
        assert!(reaped(pid));
    }

    #[test]
    fn a_failed_sigterm_still_ends_with_sigkill_and_the_child_reaped() {
        let (child, stdin, _stdout) =
            ChildProcess::spawn(Command::new("sleep").arg("30"), StderrMode::Discard).unwrap();
        drop(stdin);
        let pid = child.id();
        let exit = child.shutdown_with(Duration::from_millis(20), Duration::from_millis(20), |_| {
            Err(io::Error::other("no kill(1)"))
        });
        assert!(matches!(exit, Ok(Exit::Killed(_))), "{exit:?}");
        assert!(reaped(pid));
    }
}
