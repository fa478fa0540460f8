//! The response write timeout: a connection whose client does not take a response within the limit is
//! closed, releasing the response and the connection.
//!
//! hyper has no write timeout, so the socket is wrapped: the clock starts at the first write after the
//! connection's output was last flushed (the first byte of a response) and stops when hyper flushes it
//! whole. A write or flush still waiting when the time is up fails with `TimedOut`, which ends the
//! connection. The time is the whole response's, not the longest pause, so that a client that reads a
//! byte now and then cannot hold a response for ever either.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `S` with a deadline on writing each response.
#[derive(Debug)]
pub(crate) struct WriteDeadline<S> {
    inner: S,
    timeout: Duration,
    /// The timer, kept from one response to the next (one allocation per connection, not per
    /// response); it counts only while `armed`.
    deadline: Option<Pin<Box<Sleep>>>,
    /// From the first write after a flush until the next flush completes.
    armed: bool,
}

impl<S> WriteDeadline<S> {
    pub(crate) fn new(inner: S, timeout: Duration) -> WriteDeadline<S> {
        WriteDeadline {
            inner,
            timeout,
            deadline: None,
            armed: false,
        }
    }

    /// Starts the clock if it is not running. (The builder keeps timeouts to a year, so the deadline
    /// is a representable instant.)
    fn arm(&mut self) {
        if self.armed {
            return;
        }
        self.armed = true;
        let deadline = tokio::time::Instant::now() + self.timeout;
        match &mut self.deadline {
            Some(sleep) => sleep.as_mut().reset(deadline),
            None => self.deadline = Some(Box::pin(tokio::time::sleep_until(deadline))),
        }
    }

    /// What a write or flush that is still waiting answers: still waiting, or `TimedOut` once the
    /// deadline has passed (polling the timer also wakes the connection when it passes).
    fn waiting<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let armed = self.armed;
        match self
            .deadline
            .as_mut()
            .filter(|_| armed)
            .map(|d| d.as_mut().poll(cx))
        {
            Some(Poll::Ready(())) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the client took no response within the write timeout ({:?})",
                    self.timeout
                ),
            ))),
            _ => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteDeadline<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.arm();
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Pending => self.waiting(cx),
            ready => ready,
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.arm();
        match Pin::new(&mut self.inner).poll_write_vectored(cx, bufs) {
            Poll::Pending => self.waiting(cx),
            ready => ready,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.inner).poll_flush(cx) {
            Poll::Pending => self.waiting(cx),
            Poll::Ready(Ok(())) => {
                self.armed = false;
                Poll::Ready(Ok(()))
            }
            failed => failed,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.arm();
        match Pin::new(&mut self.inner).poll_shutdown(cx) {
            Poll::Pending => self.waiting(cx),
            ready => ready,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn a_reader_that_stops_reading_times_the_write_out() {
        // A pipe with room for 16 bytes that nobody reads.
        let (writer, _reader) = tokio::io::duplex(16);
        let mut out = WriteDeadline::new(writer, Duration::from_millis(50));
        let error = out.write_all(&[0u8; 64]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test]
    async fn a_flushed_response_stops_the_clock() {
        use tokio::io::AsyncReadExt;
        let (writer, mut reader) = tokio::io::duplex(1024);
        let mut out = WriteDeadline::new(writer, Duration::from_millis(20));
        out.write_all(b"first").await.unwrap();
        out.flush().await.unwrap();
        // Idle longer than the timeout between responses: no deadline runs.
        tokio::time::sleep(Duration::from_millis(60)).await;
        out.write_all(b"second").await.unwrap();
        out.flush().await.unwrap();
        let mut got = [0u8; 11];
        reader.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"firstsecond");
    }
}
