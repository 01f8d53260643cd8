// Package optim provides optimizers with PyTorch's update rules for the
// parameters of package nn's modules.
//
// # Overview
//
// An optimizer is made from a module's Params and a Config; each Step updates
// the tensors that have a gradient, in place, without allocating.
package optim
