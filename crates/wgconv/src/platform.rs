//! What differs between native targets and the web (`wasm32`), in one place: blocking on a
//! future (native only), the clock, boxed futures, and waiting for the GPU.
//!
//! Native wgpu (wgpu-core) finishes its futures at once or by blocking in `Device::poll`; on the
//! web a future completes only after control returns to the JavaScript event loop, so nothing
//! here may block there.

use std::{
    future::Future,
    pin::Pin,
    task::{Context as TaskContext, Poll, Waker},
};

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub(crate) use web_time::Instant;

use crate::{
    context::Context,
    error::{Error, Result},
};

/// A boxed future; `Send` on native (as wgpu's futures are there), not on the web.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A boxed future; `Send` on native (as wgpu's futures are there), not on the web.
#[cfg(target_arch = "wasm32")]
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T>>>;

/// Runs `future` to completion on this thread (the blocking API's one way to wait).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    pollster::block_on(future)
}

/// `future`'s output if it is ready now, without waiting (wgpu-core's error scopes always are;
/// the web's are not).
pub(crate) fn ready_now<T>(future: &mut BoxFuture<T>) -> Option<T> {
    match future.as_mut().poll(&mut TaskContext::from_waker(Waker::noop())) {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}

/// The result a buffer-map callback sends.
pub(crate) type MapResult = std::result::Result<(), wgpu::BufferAsyncError>;

/// Waits until the queue has finished all submitted work.
///
/// Native: blocks in `Device::poll` for at most the context's timeout ([`Error::Timeout`]).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) async fn queue_idle(ctx: &Context, operation: &str) -> Result<()> {
    match ctx.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: Some(ctx.timeout) }) {
        Ok(_) => ctx.take_uncaptured(operation),
        Err(wgpu::PollError::Timeout) => Err(timeout(ctx, operation)),
        Err(e) => Err(Error::Gpu { operation: operation.to_string(), message: e.to_string() }),
    }
}

/// Waits until the queue has finished all submitted work.
///
/// Web: awaits the queue's `onSubmittedWorkDone`; no timeout applies.
#[cfg(target_arch = "wasm32")]
pub(crate) async fn queue_idle(ctx: &Context, operation: &str) -> Result<()> {
    let (tx, rx) = futures_channel::oneshot::channel();
    ctx.queue.on_submitted_work_done(move || {
        let _ = tx.send(());
    });
    rx.await.map_err(|_| dropped(operation))?;
    ctx.take_uncaptured(operation)
}

/// Waits for the map callback of a buffer whose work was submitted, which sends to `rx`.
///
/// Native: waits for the queue, then — since another thread's poll may be the one that fires
/// the callback — keeps polling until the callback has run or the timeout passes.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) async fn mapped(
    ctx: &Context,
    mut rx: futures_channel::oneshot::Receiver<MapResult>,
    operation: &str,
) -> Result<MapResult> {
    let start = Instant::now();
    queue_idle(ctx, operation).await?;
    loop {
        match rx.try_recv() {
            Ok(Some(result)) => return Ok(result),
            Ok(None) if start.elapsed() > ctx.timeout => return Err(timeout(ctx, operation)),
            Ok(None) => {
                let _ = ctx.device.poll(wgpu::PollType::Poll);
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            Err(_) => return Err(dropped(operation)),
        }
    }
}

/// Waits for the map callback of a buffer whose work was submitted, which sends to `rx`.
///
/// Web: the callback fires from the event loop once the work is done; no timeout applies.
#[cfg(target_arch = "wasm32")]
pub(crate) async fn mapped(
    ctx: &Context,
    rx: futures_channel::oneshot::Receiver<MapResult>,
    operation: &str,
) -> Result<MapResult> {
    let result = rx.await.map_err(|_| dropped(operation))?;
    ctx.take_uncaptured(operation)?;
    Ok(result)
}

#[cfg(not(target_arch = "wasm32"))]
fn timeout(ctx: &Context, operation: &str) -> Error {
    Error::Timeout { operation: operation.to_string(), timeout_ms: ctx.timeout.as_millis() }
}

/// wgpu dropped a callback without calling it (the device went away).
fn dropped(operation: &str) -> Error {
    Error::Gpu { operation: operation.to_string(), message: "wgpu dropped the completion callback".to_string() }
}
