//! Recording several ops into one command encoder and submitting them together.

use crate::{context::Context, error::Result, pipelines::GeneratedShader};

/// One dispatch of a generated shader: the entry point, the overrides it is compiled with and the
/// grid of workgroups.
pub(crate) struct Pass<'a, S: GeneratedShader> {
    entry: S::Entry,
    overrides: &'a S::Overrides,
    workgroups: [u32; 3],
    /// The dispatch's debug marker (GPU debuggers show it); the entry point's name unless set.
    label: Option<&'static str>,
}

impl<'a, S: GeneratedShader> Pass<'a, S> {
    /// `entry` compiled with `overrides`, over `workgroups`.
    pub fn new(entry: S::Entry, overrides: &'a S::Overrides, workgroups: [u32; 3]) -> Self {
        Self { entry, overrides, workgroups, label: None }
    }

    /// Marks the dispatch `label` instead of the entry point's name.
    pub fn labelled(self, label: &'static str) -> Self {
        Self { label: Some(label), ..self }
    }
}

/// Ops recorded into one command encoder; nothing runs until [`Batch::submit_async`] (or the
/// blocking [`Batch::submit`]), and a chain of ops does not synchronise with the host between
/// them. Recording never waits: on the web, a wgpu error raised while recording comes back from
/// `submit_async` (see [`Batch::submit_async`]).
///
/// ```no_run
/// # use wgconv::{Context, Tensor, ConvOptions};
/// # let ctx = Context::new()?;
/// # let x = Tensor::from_f32(&ctx, &[0.0; 16], &[1, 1, 4, 4])?;
/// # let w = Tensor::from_f32(&ctx, &[0.0; 9], &[1, 1, 3, 3])?;
/// let mut batch = ctx.batch();
/// let y = batch.convolution(&x, &w, None, &ConvOptions::default().padding(&[1]))?;
/// let z = batch.convolution(&y.output, &w, None, &ConvOptions::default())?;
/// batch.submit()?;
/// let values = z.output.to_vec_f32(&ctx)?;
/// # Ok::<(), wgconv::Error>(())
/// ```
pub struct Batch<'c> {
    pub(crate) ctx: &'c Context,
    /// The compute pass that consecutive dispatches share, open until a command outside a pass
    /// (a copy, a clear, a timestamp marker) or the submission ends it. wgpu turns every compute
    /// pass into two command buffers (its barriers, then its body); one pass per dispatch made
    /// each op a pair of command buffers, and the GPU then took about 10 µs per op whatever its
    /// work (see docs/PERFORMANCE.md). Within a pass wgpu still puts a barrier before each
    /// dispatch that touches a buffer an earlier one wrote, or writes one an earlier one read
    /// (WebGPU's usage scope is the dispatch), so sharing the pass changes no result. Declared
    /// before `encoder`, so a batch dropped unsubmitted ends its pass before its encoder.
    pass: Option<wgpu::ComputePass<'static>>,
    encoder: wgpu::CommandEncoder,
    pub(crate) recorded: usize,
}

impl<'c> Batch<'c> {
    pub(crate) fn new(ctx: &'c Context) -> Self {
        let encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("wgconv batch") });
        Self { ctx, pass: None, encoder, recorded: 0 }
    }

    /// The command encoder, for a command outside a compute pass: ends the open pass first, so
    /// the command runs after every dispatch recorded before it.
    pub(crate) fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        self.pass = None;
        &mut self.encoder
    }

    /// Ends the open compute pass: the next op starts a new one. wgpu puts the barriers for a
    /// pass's first use of each buffer before the pass, and a barrier inside the pass only before
    /// a dispatch that reuses a buffer an earlier dispatch of the same pass wrote (or writes one
    /// it read). So independent ops recorded into a fresh pass may overlap on the GPU even where
    /// their outputs were written by earlier passes (a barrier before each would serialise
    /// them). A pass boundary costs GPU time of its own (wgpu submits each pass as two command
    /// buffers), so a chain of dependent ops gains nothing from it. Results never depend on it.
    pub fn start_new_pass(&mut self) {
        self.pass = None;
    }

    /// Number of ops recorded so far.
    pub fn len(&self) -> usize {
        self.recorded
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.recorded == 0
    }

    /// The context the batch records for.
    pub fn context(&self) -> &'c Context {
        self.ctx
    }

    /// Submits every recorded op to the queue; does not wait for the GPU to run them, only for
    /// wgpu's verdict on them. [`Batch::submit`] is the blocking form (native only).
    ///
    /// Errors: a wgpu validation or out-of-memory error of the submission, or of an op recorded
    /// into this batch, is [`Error::Gpu`](crate::Error::Gpu) naming the operation, as the
    /// blocking API reports it. On native a recording call already returned its own; on the web
    /// recording cannot wait for wgpu's verdict, so the errors of the ops recorded since the last
    /// awaited call come back here: the first of them (the others are dropped).
    ///
    /// ```no_run
    /// # use wgconv::{Context, Tensor, ConvOptions};
    /// # async fn run(ctx: &Context, x: &Tensor, w: &Tensor) -> Result<Vec<f32>, wgconv::Error> {
    /// let mut batch = ctx.batch();
    /// let y = batch.convolution(x, w, None, &ConvOptions::default().padding(&[1]))?;
    /// batch.submit_async().await?;
    /// y.output.to_vec_f32_async(ctx).await
    /// # }
    /// ```
    pub async fn submit_async(self) -> Result<()> {
        let Self { ctx, encoder, pass, .. } = self;
        drop(pass);
        let submitted = ctx.capture("submit", || {
            ctx.queue.submit([encoder.finish()]);
            Ok(())
        });
        // On native `capture` resolved every scope already and this is `Ok` at once; on the web
        // it awaits the recorded ops' scopes, then the submission's, in order.
        let recorded = ctx.settle("submit").await;
        recorded.and(submitted)
    }

    /// Records `pass` of shader `S` with the resources of `group`: its module, layouts and
    /// pipeline come from the context's cache (compiled on first use). GPU errors are reported as
    /// those of `operation`.
    pub(crate) fn record<S: GeneratedShader>(
        &mut self,
        operation: &str,
        pass: Pass<'_, S>,
        group: &S::BindGroup<'_>,
    ) -> Result<()> {
        let ctx = self.ctx;
        ctx.capture(operation, || {
            let resources = ctx.pipelines.shader::<S>(&ctx.device);
            let pipeline = ctx.pipelines.compute_pipeline::<S>(&ctx.device, &resources, pass.entry, pass.overrides);
            let group = S::create_bind_group(&ctx.device, &resources.group0, group);
            let label = pass.label.unwrap_or_else(|| S::entry_name(pass.entry));
            self.dispatch(label, &pipeline, &group, pass.workgroups);
            Ok(())
        })
    }

    /// Records one compute dispatch.
    fn dispatch(
        &mut self,
        label: &str,
        pipeline: &wgpu::ComputePipeline,
        group: &wgpu::BindGroup,
        workgroups: [u32; 3],
    ) {
        // No timestamp writes here: `timing` brackets a whole batch with two marker passes, as a
        // write (and wgpu's query reset before it) between every pair of dispatches would
        // serialise them and add its own cost to every op.
        let encoder = &mut self.encoder;
        let pass = self.pass.get_or_insert_with(|| {
            encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("wgconv ops"), timestamp_writes: None })
                .forget_lifetime()
        });
        // The op's name marks its dispatch for GPU debuggers (RenderDoc, Nsight), as each
        // dispatch's own pass label did; wgpu's error messages name the op through `capture`.
        pass.insert_debug_marker(label);
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
        self.recorded += 1;
    }
}

impl Context {
    /// Starts recording a batch of ops.
    pub fn batch(&self) -> Batch<'_> {
        Batch::new(self)
    }

    /// Records one op with `record` into a fresh batch and submits it: the single-op conveniences.
    pub(crate) async fn submit_one_async<T>(&self, record: impl FnOnce(&mut Batch<'_>) -> Result<T>) -> Result<T> {
        let mut batch = self.batch();
        let out = record(&mut batch)?;
        batch.submit_async().await?;
        Ok(out)
    }

    /// Waits until all submitted work has finished, and for wgpu's verdict on work recorded
    /// since the last awaited call. Native: bounded by the context's timeout
    /// ([`Context::set_timeout`]); on the web no timeout applies. [`Context::synchronize`] is
    /// the blocking form (native only).
    pub async fn synchronize_async(&self) -> Result<()> {
        self.settle("synchronize").await?;
        crate::platform::queue_idle(self, "synchronize").await
    }
}
