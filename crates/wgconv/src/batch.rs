//! Recording several ops into one command encoder and submitting them together.

use crate::{context::Context, error::Result};

/// Ops recorded into one command encoder; nothing runs until [`Batch::submit`], and a chain of
/// ops does not synchronise with the host between them.
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
    pub(crate) encoder: wgpu::CommandEncoder,
    pub(crate) recorded: usize,
    /// When timing: the query set whose slot 0 gets the first pass's start, slot 1 the last's end.
    pub(crate) timestamps: Option<wgpu::QuerySet>,
}

impl<'c> Batch<'c> {
    pub(crate) fn new(ctx: &'c Context) -> Self {
        let encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("wgconv batch") });
        Self { ctx, encoder, recorded: 0, timestamps: None }
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

    /// Submits every recorded op to the queue (does not wait for the GPU).
    pub fn submit(self) -> Result<()> {
        let Self { ctx, encoder, .. } = self;
        ctx.capture("submit", || {
            ctx.queue.submit([encoder.finish()]);
            Ok(())
        })
    }

    /// Records one compute dispatch.
    pub(crate) fn dispatch(
        &mut self,
        label: &str,
        pipeline: &wgpu::ComputePipeline,
        group: &wgpu::BindGroup,
        workgroups: [u32; 3],
    ) {
        let timestamp_writes = self.timestamps.as_ref().map(|query_set| wgpu::ComputePassTimestampWrites {
            query_set,
            beginning_of_pass_write_index: (self.recorded == 0).then_some(0),
            end_of_pass_write_index: Some(1),
        });
        let mut pass =
            self.encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(label), timestamp_writes });
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
    pub(crate) fn submit_one<T>(&self, record: impl FnOnce(&mut Batch<'_>) -> Result<T>) -> Result<T> {
        let mut batch = self.batch();
        let out = record(&mut batch)?;
        batch.submit()?;
        Ok(out)
    }

    /// Waits until all submitted work has finished (bounded by the context's timeout).
    pub fn synchronize(&self) -> Result<()> {
        self.wait("synchronize")
    }
}
