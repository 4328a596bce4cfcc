//! What the Vulkan driver compiled each pipeline to (`wgconv bench --pipeline-stats`).
//!
//! Timing says how fast a kernel runs, not why. A driver that has
//! `VK_KHR_pipeline_executable_properties` reports statistics of the machine code it built (on
//! NVIDIA: registers per thread, which set how many workgroups an SM holds at once). wgpu does not
//! expose them, so each pipeline a run compiled ([`wgconv::CompiledPipeline`]) is lowered here as
//! wgpu 30's Vulkan backend lowers it (naga, the same override values, the context's shader
//! checks, the driver's robust buffer access where wgpu turns it on) and compiled again on a
//! Vulkan device of our own, the same GPU, created with that extension, to ask.

use std::collections::BTreeMap;

use ash::vk;
use naga::valid::{Capabilities, ValidationFlags, Validator};
use serde::Serialize;
use wgconv::{CompiledPipeline, ShaderChecks};

/// One statistic of one executable of a pipeline, as the driver names and describes it.
#[derive(Clone, Debug, Serialize)]
pub struct Statistic {
    /// The driver's name for it (e.g. NVIDIA's "Register Count").
    pub name: String,
    /// The driver's description of it.
    pub description: String,
    /// Its value (booleans as 0 or 1).
    pub value: f64,
}

/// A pipeline's shader, entry point and override values, with the driver's statistics.
#[derive(Clone, Debug, Serialize)]
pub struct PipelineStats {
    /// Path of the shader.
    pub shader: &'static str,
    /// Entry point.
    pub entry: &'static str,
    /// Override values it was specialised with.
    pub constants: BTreeMap<&'static str, f64>,
    /// The driver's statistics, or why there are none.
    #[serde(flatten)]
    pub statistics: Probed,
}

/// What the driver said of one pipeline.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Probed {
    /// Its statistics, and with `--pipeline-ir` its internal representations.
    Statistics {
        /// Every statistic of every executable (a compute pipeline has one).
        statistics: Vec<Statistic>,
        /// (name, text) of each textual internal representation (none unless asked for; binary
        /// ones are left out).
        #[serde(skip)]
        representations: Vec<(String, String)>,
        /// Why the representations could not be read, when they could not.
        #[serde(skip_serializing_if = "Option::is_none")]
        representations_error: Option<String>,
    },
    /// Why there are none.
    Error {
        /// The reason.
        error: String,
    },
}

impl PipelineStats {
    /// One line: entry point, its override values but the layer's geometry (`spec_*`), then each
    /// statistic.
    pub fn summary(&self) -> String {
        let picked: Vec<String> =
            self.constants.iter().filter(|(k, _)| !k.starts_with("spec_")).map(|(k, v)| format!("{k}={v}")).collect();
        let statistics = match &self.statistics {
            Probed::Statistics { statistics, .. } => {
                statistics.iter().map(|s| format!("{}={}", s.name, s.value)).collect::<Vec<_>>().join(", ")
            }
            Probed::Error { error } => format!("no statistics: {error}"),
        };
        format!("{} [{}]: {statistics}", self.entry, picked.join(" "))
    }
}

/// What [`Prober::new`] compiles for: wgpu's adapter and checks.
#[derive(Clone, Copy, Debug)]
pub struct ProbeTarget {
    /// The PCI vendor and device IDs of the adapter the pipelines ran on (`wgpu::AdapterInfo`):
    /// that GPU compiles them, and without the extension there is no prober. `None` takes any
    /// device with the extension, a discrete GPU first.
    pub vendor_device: Option<(u32, u32)>,
    /// Whether the context's device has subgroups (`wgpu::Features::SUBGROUP`), with which wgpu
    /// lets the driver choose the subgroup size.
    pub subgroups: bool,
    /// The checks the context compiled its shaders with (`Context::shader_checks`).
    pub checks: ShaderChecks,
    /// Whether to capture the driver's internal representations too.
    pub capture_representations: bool,
}

/// A Vulkan device created to compile pipelines and read their statistics.
pub struct Prober {
    // Kept alive with the device: the instance's functions come from the loader it holds.
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    executables: ash::khr::pipeline_executable_properties::Device,
    target: ProbeTarget,
    /// Whether the device has robust buffer access 2 on (wgpu then leaves buffer bounds to it).
    robust_buffer_access2: bool,
    /// Whether the compute stage may run at any subgroup size (wgpu's flag with subgroups on).
    varying_subgroup_size: bool,
    /// The device's name, to print beside the statistics.
    pub device_name: String,
}

/// What `Prober::open` made.
struct Opened {
    device: ash::Device,
    physical: vk::PhysicalDevice,
    robust_buffer_access2: bool,
    varying_subgroup_size: bool,
}

/// The checks wgpu injects when it lowers a shader: the context's, and whether the driver
/// enforces buffer bounds itself (robust buffer access 2), which makes wgpu leave them out.
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// The context's checks.
    pub shader: ShaderChecks,
    /// Whether the device has robust buffer access 2 on.
    pub robust_buffer_access2: bool,
}

/// What [`lower`] returns: the SPIR-V words, and the module and its validation info with only
/// the entry point.
pub type Lowered = (Vec<u32>, naga::Module, naga::valid::ModuleInfo);

/// Why a prober could not be made or a pipeline not be compiled, as text for the report.
type ProbeResult<T> = Result<T, String>;

fn vk_error(what: &str) -> impl FnOnce(vk::Result) -> String + '_ {
    move |e| format!("{what}: {e}")
}

impl Prober {
    /// Opens the Vulkan loader and a device that reports pipeline statistics: the target's GPU
    /// (an error where it lacks the extension), or without a target the first such one (a
    /// discrete GPU first). Every core feature of Vulkan 1.0–1.3 the device has is on, with
    /// cooperative matrices and robust buffer access 2 where it has them, as wgpu turns them on
    /// (robust cooperative-matrix loads and null descriptors stay off, as in wgpu). With
    /// `target.capture_representations`, [`Prober::probe`] also returns the driver's textual
    /// internal representations of each pipeline (what a driver offers there is its own:
    /// possibly none).
    pub fn new(target: ProbeTarget) -> ProbeResult<Self> {
        // SAFETY: loading the system's Vulkan loader; its functions are called per the spec below.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        // SAFETY: a valid create info; the instance is destroyed in `Drop`.
        let instance =
            unsafe { entry.create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None) }
                .map_err(vk_error("vkCreateInstance"))?;
        match Self::open(&instance, target.vendor_device, target.subgroups) {
            Ok(Opened { device, physical, robust_buffer_access2, varying_subgroup_size }) => {
                let executables = ash::khr::pipeline_executable_properties::Device::new(&instance, &device);
                // SAFETY: `physical` is a handle of this instance.
                let properties = unsafe { instance.get_physical_device_properties(physical) };
                let device_name = properties
                    .device_name_as_c_str()
                    .map_or_else(|_| "(unnamed device)".to_string(), |name| name.to_string_lossy().into_owned());
                Ok(Self {
                    _entry: entry,
                    instance,
                    device,
                    executables,
                    target,
                    robust_buffer_access2,
                    varying_subgroup_size,
                    device_name,
                })
            }
            Err(why) => {
                // SAFETY: nothing was created from the instance.
                unsafe { instance.destroy_instance(None) };
                Err(why)
            }
        }
    }

    /// The logical device, its physical device and the features that change what is compiled.
    fn open(instance: &ash::Instance, vendor_device: Option<(u32, u32)>, subgroups: bool) -> ProbeResult<Opened> {
        let wanted = ash::khr::pipeline_executable_properties::NAME;
        let has = |physical: vk::PhysicalDevice, name: &std::ffi::CStr| {
            // SAFETY: `physical` is a handle of this instance.
            unsafe { instance.enumerate_device_extension_properties(physical) }
                .unwrap_or_default()
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
        };
        // SAFETY: a valid instance.
        let mut physicals =
            unsafe { instance.enumerate_physical_devices() }.map_err(vk_error("vkEnumeratePhysicalDevices"))?;
        // SAFETY (both closures): handles of this instance.
        let api = |p: vk::PhysicalDevice| unsafe { instance.get_physical_device_properties(p) }.api_version;
        let properties = |p: vk::PhysicalDevice| unsafe { instance.get_physical_device_properties(p) };
        physicals.retain(|&p| has(p, wanted) && api(p) >= vk::API_VERSION_1_3);
        // Only the target's GPU where there is one (another would compile other code), else
        // discrete ones first.
        if let Some(ids) = vendor_device {
            physicals.retain(|&p| (properties(p).vendor_id, properties(p).device_id) == ids);
        }
        physicals.sort_by_key(|&p| properties(p).device_type != vk::PhysicalDeviceType::DISCRETE_GPU);
        let Some(&physical) = physicals.first() else {
            let which = vendor_device.map_or_else(String::new, |(v, d)| format!(" of vendor {v:#x}, device {d:#x}"));
            return Err(format!("no Vulkan 1.3 device{which} has {}", wanted.to_string_lossy()));
        };
        // SAFETY: a handle of this instance.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or("the device has no compute queue")? as u32;

        // Every core feature the device has (f16, 16-bit storage, int8 dot products, the memory
        // model, zeroed workgroup memory, subgroup size control, robust buffer access), with
        // cooperative matrices and robust buffer access 2 where it has them, which wgpu turns
        // on too: a pipeline compiles as it would under wgpu with those features on (wgpu turns
        // on only the core features its enabled features need; the others are not known to
        // change compute code, not shown not to).
        let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut coop = vk::PhysicalDeviceCooperativeMatrixFeaturesKHR::default();
        let mut robustness2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
        let has_coop = has(physical, ash::khr::cooperative_matrix::NAME);
        let has_robustness2 = has(physical, ash::ext::robustness2::NAME);
        let mut query =
            vk::PhysicalDeviceFeatures2::default().push_next(&mut f11).push_next(&mut f12).push_next(&mut f13);
        if has_coop {
            query = query.push_next(&mut coop);
        }
        if has_robustness2 {
            query = query.push_next(&mut robustness2);
        }
        // SAFETY: a handle of this instance and a valid feature chain.
        unsafe { instance.get_physical_device_features2(physical, &mut query) };
        let core = query.features;
        // The query chained the structures; they are chained again below for the device.
        f11.p_next = std::ptr::null_mut();
        f12.p_next = std::ptr::null_mut();
        f13.p_next = std::ptr::null_mut();
        coop.p_next = std::ptr::null_mut();
        robustness2.p_next = std::ptr::null_mut();
        // wgpu asks for no null descriptors, and turns on neither robust cooperative-matrix loads
        // (with them the driver would bounds-check `coop_f16`'s fragment loads) nor robust buffer
        // access 2 without robust buffer access.
        robustness2.null_descriptor = vk::FALSE;
        coop.cooperative_matrix_robust_buffer_access = vk::FALSE;
        if core.robust_buffer_access == vk::FALSE {
            robustness2.robust_buffer_access2 = vk::FALSE;
        }
        let robust_buffer_access2 = has_robustness2 && robustness2.robust_buffer_access2 == vk::TRUE;
        let varying_subgroup_size = subgroups && f13.subgroup_size_control == vk::TRUE;
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .features(core)
            .push_next(&mut f11)
            .push_next(&mut f12)
            .push_next(&mut f13);
        if has_coop {
            features = features.push_next(&mut coop);
        }
        if has_robustness2 {
            features = features.push_next(&mut robustness2);
        }
        let mut executable_info =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default().pipeline_executable_info(true);
        let mut extensions = vec![wanted.as_ptr()];
        if has_coop {
            extensions.push(ash::khr::cooperative_matrix::NAME.as_ptr());
        }
        if has_robustness2 {
            extensions.push(ash::ext::robustness2::NAME.as_ptr());
        }
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&priorities)];
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&extensions)
            .push_next(&mut features)
            .push_next(&mut executable_info);
        // SAFETY: valid create info; the device is destroyed in `Drop`.
        let device = unsafe { instance.create_device(physical, &info, None) }.map_err(vk_error("vkCreateDevice"))?;
        Ok(Opened { device, physical, robust_buffer_access2, varying_subgroup_size })
    }

    /// Lowers `pipeline` to SPIR-V as wgpu does, compiles it, and reads each executable's
    /// statistics (a compute pipeline has one), and its representations when captured.
    pub fn probe(&self, pipeline: &CompiledPipeline) -> Probed {
        self.try_probe(pipeline).unwrap_or_else(|error| Probed::Error { error })
    }

    fn try_probe(&self, pipeline: &CompiledPipeline) -> ProbeResult<Probed> {
        let checks = Checks { shader: self.target.checks, robust_buffer_access2: self.robust_buffer_access2 };
        let (words, lowered, info) = lower(pipeline, checks)?;
        let code = vk::ShaderModuleCreateInfo::default().code(&words);
        // SAFETY: valid SPIR-V from naga; destroyed below.
        let module =
            unsafe { self.device.create_shader_module(&code, None) }.map_err(vk_error("vkCreateShaderModule"))?;
        let result = self.with_layout(&lowered, &info, |layout| self.compile(module, layout, pipeline.entry));
        // SAFETY: no pipeline being created uses it any more.
        unsafe { self.device.destroy_shader_module(module, None) };
        result
    }

    /// Runs `f` with a pipeline layout that has the buffer bindings the module's entry point uses
    /// (`module` and `info` as `lower` returns them: one entry point).
    fn with_layout<T>(
        &self,
        module: &naga::Module,
        info: &naga::valid::ModuleInfo,
        f: impl FnOnce(vk::PipelineLayout) -> ProbeResult<T>,
    ) -> ProbeResult<T> {
        if module.entry_points.len() != 1 {
            return Err(format!("{} entry points after lowering, not 1", module.entry_points.len()));
        }
        let uses = info.get_entry_point(0);
        let mut groups: BTreeMap<u32, Vec<vk::DescriptorSetLayoutBinding>> = BTreeMap::new();
        for (handle, global) in module.global_variables.iter() {
            if uses[handle].is_empty() {
                continue;
            }
            let (Some(binding), kind) = (&global.binding, &global.space) else { continue };
            let descriptor_type = match kind {
                naga::AddressSpace::Storage { .. } => vk::DescriptorType::STORAGE_BUFFER,
                naga::AddressSpace::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
                other => {
                    return Err(format!("binding ({}, {}) in {other:?}: not a buffer", binding.group, binding.binding));
                }
            };
            groups.entry(binding.group).or_default().push(
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding.binding)
                    .descriptor_type(descriptor_type)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE),
            );
        }
        let last = groups.keys().next_back().map_or(0, |g| g + 1);
        let mut sets = Vec::new();
        let mut made = Ok(());
        for group in 0..last {
            let bindings = groups.remove(&group).unwrap_or_default();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            // SAFETY: valid create info; destroyed below.
            match unsafe { self.device.create_descriptor_set_layout(&info, None) } {
                Ok(set) => sets.push(set),
                Err(e) => {
                    made = Err(format!("vkCreateDescriptorSetLayout: {e}"));
                    break;
                }
            }
        }
        let result = made.and_then(|()| {
            let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
            // SAFETY: valid create info; destroyed below.
            let layout = unsafe { self.device.create_pipeline_layout(&info, None) }
                .map_err(vk_error("vkCreatePipelineLayout"))?;
            let result = f(layout);
            // SAFETY: no pipeline being created uses it any more.
            unsafe { self.device.destroy_pipeline_layout(layout, None) };
            result
        });
        for set in sets {
            // SAFETY: the pipeline layout that used it is gone.
            unsafe { self.device.destroy_descriptor_set_layout(set, None) };
        }
        result
    }

    /// Compiles the entry point with statistics captured and reads them.
    fn compile(&self, module: vk::ShaderModule, layout: vk::PipelineLayout, entry: &str) -> ProbeResult<Probed> {
        let name = std::ffi::CString::new(entry).map_err(|e| format!("entry point {entry:?}: {e}"))?;
        let mut stage_flags = vk::PipelineShaderStageCreateFlags::empty();
        if self.varying_subgroup_size {
            stage_flags |= vk::PipelineShaderStageCreateFlags::ALLOW_VARYING_SUBGROUP_SIZE;
        }
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .flags(stage_flags)
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&name);
        let mut flags = vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR;
        if self.target.capture_representations {
            flags |= vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR;
        }
        let info = [vk::ComputePipelineCreateInfo::default().flags(flags).stage(stage).layout(layout)];
        // SAFETY: valid create info; the pipeline is destroyed below.
        let pipeline = unsafe { self.device.create_compute_pipelines(vk::PipelineCache::null(), &info, None) }
            .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?[0];
        let result = self.read(pipeline);
        // SAFETY: nothing uses the pipeline.
        unsafe { self.device.destroy_pipeline(pipeline, None) };
        result
    }

    fn read(&self, pipeline: vk::Pipeline) -> ProbeResult<Probed> {
        // SAFETY: a pipeline of this device created with CAPTURE_STATISTICS.
        let executables = unsafe {
            self.executables.get_pipeline_executable_properties(&vk::PipelineInfoKHR::default().pipeline(pipeline))
        }
        .map_err(vk_error("vkGetPipelineExecutablePropertiesKHR"))?;
        let (mut all, mut representations, mut representations_error) = (Vec::new(), Vec::new(), None);
        for index in 0..executables.len() as u32 {
            let executable = vk::PipelineExecutableInfoKHR::default().pipeline(pipeline).executable_index(index);
            // SAFETY: as above, and an index below the executables' count.
            let statistics = unsafe { self.executables.get_pipeline_executable_statistics(&executable) }
                .map_err(vk_error("vkGetPipelineExecutableStatisticsKHR"))?;
            for s in statistics {
                let name = s.name_as_c_str().map_or_else(|_| "?".to_string(), |n| n.to_string_lossy().into_owned());
                let description =
                    s.description_as_c_str().map_or_else(|_| String::new(), |d| d.to_string_lossy().into_owned());
                // SAFETY: `format` says which member of the union the driver wrote.
                let value = unsafe {
                    match s.format {
                        vk::PipelineExecutableStatisticFormatKHR::BOOL32 => f64::from(s.value.b32),
                        vk::PipelineExecutableStatisticFormatKHR::INT64 => s.value.i64 as f64,
                        vk::PipelineExecutableStatisticFormatKHR::UINT64 => s.value.u64 as f64,
                        _ => s.value.f64,
                    }
                };
                all.push(Statistic { name, description, value });
            }
            // A failure here keeps the statistics already read.
            if self.target.capture_representations {
                match self.representations(&executable) {
                    Ok(texts) => representations.extend(texts),
                    Err(why) => representations_error = Some(why),
                }
            }
        }
        Ok(Probed::Statistics { statistics: all, representations, representations_error })
    }

    /// The textual internal representations of one executable (binary ones are skipped).
    fn representations(&self, executable: &vk::PipelineExecutableInfoKHR<'_>) -> ProbeResult<Vec<(String, String)>> {
        // SAFETY: as in `read`; the first call fills in each representation's size only.
        let mut all = unsafe { self.executables.get_pipeline_executable_internal_representations(executable) }
            .map_err(vk_error("vkGetPipelineExecutableInternalRepresentationsKHR"))?;
        let mut buffers: Vec<Vec<u8>> = all.iter().map(|r| vec![0u8; r.data_size]).collect();
        for (r, buffer) in all.iter_mut().zip(&mut buffers) {
            r.p_data = buffer.as_mut_ptr().cast();
        }
        let mut count = all.len() as u32;
        // SAFETY: the second call of the two-call idiom: `all` holds `count` structures whose
        // `p_data` point at buffers of the `data_size` the first call returned.
        unsafe {
            (self.executables.fp().get_pipeline_executable_internal_representations_khr)(
                self.device.handle(),
                executable,
                &mut count,
                all.as_mut_ptr(),
            )
        }
        .result()
        .map_err(vk_error("vkGetPipelineExecutableInternalRepresentationsKHR"))?;
        Ok(all
            .iter()
            .zip(buffers)
            .filter(|(r, _)| r.is_text == vk::TRUE)
            .map(|(r, buffer)| {
                let name = r.name_as_c_str().map_or_else(|_| "?".to_string(), |n| n.to_string_lossy().into_owned());
                let text =
                    String::from_utf8_lossy(&buffer[..buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len())]);
                (name, text.into_owned())
            })
            .collect())
    }
}

impl Drop for Prober {
    fn drop(&mut self) {
        // SAFETY: every object made from them was destroyed where it was made.
        unsafe {
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// The entry point in SPIR-V as wgpu 30's Vulkan backend lowers it under `checks` (its
/// `ShaderChecks::Audited` options: no index, buffer or loop-bounding checks, integer-division
/// guards kept; `Full`: indices clamped, buffer indices clamped unless the driver enforces
/// them, loops bounded), workgroup memory zeroed by the driver; with the entry point's module as
/// `process_overrides` compacted it. One difference remains: naga may use every SPIR-V
/// capability here, where wgpu lists the device's. They differ only on a device without int8
/// arithmetic or integer dot products, where wgpu emulates `dot4I8Packed` and the packing
/// built-ins: there the int8 kernels' statistics are of code wgpu would not run.
pub fn lower(pipeline: &CompiledPipeline, checks: Checks) -> ProbeResult<Lowered> {
    let module = naga::front::wgsl::parse_str(pipeline.source).map_err(|e| format!("WGSL: {e}"))?;
    let info = Validator::new(ValidationFlags::all(), Capabilities::all())
        .validate(&module)
        .map_err(|e| format!("validation: {e}"))?;
    let constants: naga::back::PipelineConstants =
        pipeline.constants.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let (module, info) = naga::back::pipeline_constants::process_overrides(
        &module,
        &info,
        Some((naga::ShaderStage::Compute, pipeline.entry)),
        &constants,
    )
    .map_err(|e| format!("overrides: {e}"))?;
    use naga::proc::BoundsCheckPolicy::{Restrict, Unchecked};
    let full = checks.shader == ShaderChecks::Full;
    let options = naga::back::spv::Options {
        // What wgpu writes for a Vulkan 1.3 device (the only kind `open` takes).
        lang_version: (1, 6),
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: if full { Restrict } else { Unchecked },
            buffer: if full && !checks.robust_buffer_access2 { Restrict } else { Unchecked },
            image_load: Unchecked,
            binding_array: Unchecked,
        },
        zero_initialize_workgroup_memory: naga::back::spv::ZeroInitializeWorkgroupMemoryMode::Native,
        force_loop_bounding: full,
        emit_int_div_checks: true,
        ..Default::default()
    };
    let stage = naga::back::spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: pipeline.entry.to_string(),
    };
    let words =
        naga::back::spv::write_vec(&module, &info, &options, Some(&stage)).map_err(|e| format!("SPIR-V: {e}"))?;
    // `process_overrides` keeps only the selected entry point when the module has others or has
    // overrides; without either it already has only that one.
    Ok((words, module.into_owned(), info.into_owned()))
}

/// Writes `stats`' textual representations to `dir` as `{layer}.{index}.{entry}.{n}.txt` (the
/// layer's name with anything but letters, digits, `-`, `_` and `.` replaced; `index` is the
/// pipeline's place in the layer's list, so a second run overwrites the first), each starting
/// with a line that names the representation, the shader and the override values.
pub fn write_representations(
    dir: &std::path::Path,
    layer: &str,
    index: usize,
    stats: &PipelineStats,
) -> std::io::Result<()> {
    let Probed::Statistics { representations, .. } = &stats.statistics else { return Ok(()) };
    if representations.is_empty() {
        return Ok(());
    }
    std::fs::create_dir_all(dir)?;
    let layer: String =
        layer.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
    for (n, (name, text)) in representations.iter().enumerate() {
        let path = dir.join(format!("{layer}.{index}.{}.{n}.txt", stats.entry));
        std::fs::write(path, format!("// {name}: {} {}\n{text}", stats.shader, stats.summary()))?;
    }
    Ok(())
}

/// Each pipeline with its statistics for `target` (an error per pipeline, or for all of them
/// where no prober could be made). Each pipeline in the list is compiled once: a context's
/// compiled pipelines are distinct, so the caller's list has no repeats to share.
pub fn collect(pipelines: &[CompiledPipeline], target: ProbeTarget) -> (Option<String>, Vec<PipelineStats>) {
    if pipelines.is_empty() {
        return (None, Vec::new());
    }
    let prober = Prober::new(target);
    let stats = pipelines
        .iter()
        .map(|p| {
            let statistics = match &prober {
                Ok(prober) => prober.probe(p),
                Err(why) => Probed::Error { error: why.clone() },
            };
            PipelineStats {
                shader: p.shader,
                entry: p.entry,
                constants: p.constants.iter().copied().collect(),
                statistics,
            }
        })
        .collect();
    (prober.as_ref().ok().map(|p| p.device_name.clone()), stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pipeline a few convolutions compile lowers to SPIR-V (the step that needs no
    /// driver with statistics, which CI's lavapipe lacks).
    #[test]
    fn compiled_pipelines_lower_to_spirv() {
        let ctx = wgconv::Context::new().unwrap();
        let x = wgconv::Tensor::from_f32(&ctx, &[0.5; 2 * 8 * 9 * 9], &[2, 8, 9, 9]).unwrap();
        let w = wgconv::Tensor::from_f32(&ctx, &[0.25; 16 * 8 * 3 * 3], &[16, 8, 3, 3]).unwrap();
        let opts = wgconv::ConvOptions::default();
        ctx.conv2d(&x, &w, None, &opts).unwrap();
        let pipelines = ctx.compiled_pipelines();
        assert!(!pipelines.is_empty());
        // Both kinds of checks, the buffer bounds left to the driver or not: each lowering is
        // SPIR-V, and clamping indices adds instructions.
        let lowered = |p: &CompiledPipeline, shader, robust_buffer_access2| {
            lower(p, Checks { shader, robust_buffer_access2 })
                .unwrap_or_else(|e| panic!("{} {}: {e}", p.shader, p.entry))
                .0
        };
        for p in &pipelines {
            let audited = lowered(p, ShaderChecks::Audited, true);
            assert_eq!(audited[0], 0x0723_0203, "{} {}: not SPIR-V", p.shader, p.entry);
            assert!(lowered(p, ShaderChecks::Full, false).len() > audited.len(), "{} {}", p.shader, p.entry);
        }
        // Without a device that reports statistics, each pipeline says why it has none.
        let target = ProbeTarget {
            vendor_device: None,
            subgroups: false,
            checks: ctx.shader_checks(),
            capture_representations: false,
        };
        let (device, stats) = collect(&pipelines, target);
        assert_eq!(stats.len(), pipelines.len());
        if device.is_none() {
            let says_why = |s: &PipelineStats| matches!(&s.statistics, Probed::Error { error } if !error.is_empty());
            assert!(stats.iter().all(says_why));
        }
    }
}
