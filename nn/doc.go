// Package nn provides neural-network modules built on package tensor: Linear,
// MLP, Conv2d, the Nature-DQN CNN, a dueling head, NoisyLinear, GRU and LSTM
// cells; parameter sets with hard and soft (Polyak) updates between networks;
// parameters saved and loaded in the safetensors format under the names
// PyTorch uses; and Caller, the Go form of Machin's safe_call.
//
// # Overview
//
// A Module owns named tensors (Params) in a stable order. A Layer is a Module
// with Forward(tape, x); Sequential chains Layers, and activations (ReLU,
// Tanh, …) are Layers too. A forward pass records its operations on a
// *tensor.Tape: for training, reset the tape, run the forward pass and the
// loss, call Backward, step an optimizer (package optim); for acting, use a
// tape with gradients off (SetGradEnabled(false)).
//
// Users write their own networks as any type with a Params method that
// returns its children's parameters under their names:
//
//	func (n *Net) Params() nn.Params {
//		return append(n.fc1.Params().Prefixed("fc1"), n.fc2.Params().Prefixed("fc2")...)
//	}
//
// A network whose inputs come from batches also implements Model (Inputs and
// Call) and is called through a Caller with the batches: the declared inputs
// are looked up by key, in order, and other keys are ignored.
//
// Target networks are built with the same constructor as the online network
// and kept in step with Copy (hard update) or SoftUpdate (θ' ← τθ + (1 − τ)θ').
//
// # Invariants
//
//   - Params lists a module's tensors in a stable order, named as PyTorch's
//     state_dict names the same network: "0.weight" for the first layer of an
//     MLP, "weight_ih" for a GRUCell, "value.bias" in a dueling head. Save
//     writes these names and Load matches by them, so weights move between
//     gorl and PyTorch with safetensors.torch.save_file/load_file.
//   - Parameters are leaf tensors that require gradients; buffers (Param.Buffer,
//     such as NoisyLinear's noise) do not: they are saved, loaded and copied
//     but not trained, not Polyak-averaged and not counted.
//   - Modules start in training mode; SetTraining switches a module and all the
//     modules it contains (Dropout drops and NoisyLinear adds noise only in
//     training mode).
//   - Data errors (a malformed file, a file for another network, a missing or
//     ambiguous input, parameter sets of different structures, an invalid
//     Config) are returned as errors wrapping the package's sentinel errors.
//     Programmer errors panic: a layer constructor given a size below 1
//     (wrapping ErrConfig, as make panics on a negative length) and an input
//     of the wrong shape (tensor.ErrShape, from package tensor).
//
// # Aliasing
//
// Params returns the modules' own tensors: writing through them (Load, Copy,
// an optimizer) changes the module. Clone makes independent copies. Forward
// results belong to the tape and are valid until its Reset; views (Flatten,
// Identity) share their input's memory. Caller hands a model a C-contiguous
// float32 array of a batch without copying (the tensor shares its memory) and
// converts other arrays into a float32 copy, refreshed at every call.
//
// # Allocation
//
// Params, Prefixed, Trainable and Clone allocate: take a module's Params once
// and keep it. Forward passes of every module allocate nothing in steady
// state on a reset tape, for training and for acting at batch 1 (locked by
// AllocsPerRun tests). Copy, SoftUpdate, NoisyLinear.ResetNoise and
// Caller.Call with the same arrays as the previous call do not allocate.
// Load allocates the data section once.
//
// # Decisions
//
//   - Params is an ordered slice of named tensors, not a map: PyTorch's
//     state_dict order is the natural order to save, compare (Match) and
//     iterate in, and SoftUpdate between two cached slices needs no lookups
//     and allocates nothing.
//   - Buffers are marked on their Param instead of coming from a second
//     method, so a user's module has one method to write, and a file written
//     from a PyTorch module with buffers (NoisyNet's epsilon) loads strictly.
//   - Activation is a string type that is also a Layer: it can stand in a JSON
//     configuration, and it takes a position in a Sequential as PyTorch's
//     activation modules do, which keeps the parameter names equal.
//   - Layer constructors (NewLinear, NewConv2d, NewGRUCell, …) take plain sizes
//     and panic on sizes below 1, as gonum's mat.NewDense does; networks
//     described by a Config (NewMLP) validate it and return an error, since
//     configurations come from files and flags.
//   - NatureCNN follows CleanRL's dqn_atari.py: the input is divided by 255
//     inside the network (Scale; set it to 1 for inputs already scaled) and the
//     body is one Sequential, so its names are CleanRL's without "network.".
//     The scale is folded into the first convolution's filters
//     (conv(s·x, W) = conv(x, s·W), the gradient reaching W through the
//     tape): 8,192 multiplications per step instead of 28,224 per sample,
//     where scaling the input was a noticeable part of the forward pass.
//   - NoisyLinear initializes σ to σ₀/√in for weights and biases as the paper
//     states (Kaixhin's Rainbow uses σ₀/√out for the bias); its state names
//     follow that implementation. Evaluation mode uses the mean weights, as
//     the paper evaluates.
//   - Dueling subtracts the mean advantage (Wang et al.'s eq. 9, which they
//     found more stable than the max), as Tianshou and CleanRL do.
//   - The recurrent cells take the state explicitly (no nil for zeros): the
//     caller owns the zero state and its batch size.
//   - Load accepts F32 tensors only and requires exactly the module's tensors
//     (PyTorch's strict loading); other dtypes are reported by name. It reads
//     the header through a limit reader, so memory follows the bytes actually
//     present, allocates the data section only after every entry has matched a
//     tensor of the module, and writes nothing until the whole file has been
//     read and checked. The header limit is the reference implementation's
//     100,000,000 bytes; entries must tile the data section without gap or
//     overlap, as that implementation validates.
//   - Caller caches the tensor it made for each input by the identity of the
//     *nd.Array (nd arrays never change shape or buffer), so acting with the
//     same observation array allocates nothing; a batch holding a new array
//     costs one tensor.FromND.
package nn
