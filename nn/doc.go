// Package nn provides neural-network modules built on package tensor:
// Linear and MLP layers, parameter sets, and hard and soft (Polyak) updates
// between networks of the same structure.
//
// # Overview
//
// A Module owns named parameters (Params); a Layer is a Module with a
// Forward(tape, x) method. Layers record their computation on a
// *tensor.Tape, so a training step that repeats the same forward pass on a
// reset tape allocates nothing.
//
// # Invariants
//
//   - Params lists tensors in a stable order, named as PyTorch's state_dict
//     names the same network.
//   - Parameters are leaf tensors that require gradients; buffers do not.
package nn
