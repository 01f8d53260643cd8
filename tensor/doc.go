// Package tensor provides float32 n-dimensional tensors with reverse-mode
// automatic differentiation: the torch of gorl, on which modules (nn),
// optimizers (optim), distributions and the algorithms are built.
//
// # Overview
//
// A Tensor holds float32 values row-major and contiguously, a shape, and
// optionally a gradient. Leaves are created with New or FromSlice (or from an
// nd array with FromND); parameters are leaves marked with SetRequiresGrad
// and initialized with FillKaimingUniform, FillOrthogonal, FillUniform,
// FillNormal or Fill.
//
// Operations are methods of a Tape, which records them and owns their
// results:
//
//	var tp tensor.Tape
//	h := tp.ReLU(tp.Linear(x, w1, b1))
//	loss := tp.MSE(tp.Linear(h, w2, b2), y)
//	tp.Backward(loss) // adds dloss/dp to p.Grad() for every parameter p
//
// The operations: Linear (x·wᵀ + b), MatMul, Conv2d (NCHW, stride, zero
// padding); Add, Sub, Mul, Div, Maximum, Minimum and Where with numpy
// broadcasting; Neg, Exp, Log, Sqrt, Abs, Pow, Clamp, AddScalar, MulScalar;
// ReLU, LeakyReLU, ELU, Tanh, Sigmoid, Softplus, Softmax, LogSoftmax,
// LayerNorm, Dropout; Sum, Mean, Max, Min over all elements or one axis
// (SumAxis…); Gather (Q(s, a)), OneHot, ArgMaxTo; the losses MSE, Huber
// (smooth L1) and CrossEntropy; and the shape operations Reshape, Flatten,
// Squeeze, Unsqueeze, Transpose, Slice, IndexSelect, Index (numpy indexing),
// Concat, Stack and Detach. Every differentiable operation's gradient is
// checked against central differences (package tensortest).
//
// # Steady state without allocation
//
// A Tape keeps the nodes of the current step in order. Reset rewinds it, and
// the next step's operations get, position by position, the same nodes,
// result tensors and buffers; a buffer is reallocated only when a larger one
// is needed. So a training step that repeats the same operations on the same
// shapes allocates nothing once the first step has run:
//
//	for {
//		tp.Reset()
//		loss := tp.MSE(model(&tp, x), y)
//		for _, p := range params {
//			p.ZeroGrad()
//		}
//		tp.Backward(loss)
//		opt.Step() // reads p.Grad(), writes p.Data()
//	}
//
// Parameters keep their gradient memory across steps; ZeroGrad only marks the
// gradient as absent (PyTorch's set_to_none), and the next Backward writes it
// instead of adding to it. Acting works the same way with a second tape whose
// recording is off (SetGradEnabled(false)): no gradient memory is used and
// nothing is allocated per step. Example_trainingStep shows a complete step.
//
// # Invariants
//
//   - Data is row-major and contiguous; len(Data()) is the product of the
//     shape (1 for a scalar, whose shape is empty).
//   - A tape's results are valid until its Reset. Using one afterwards as an
//     operand, or calling Backward on it, panics with ErrStale; reading its
//     Data sees the next step's values.
//   - A result requires gradients exactly when the tape records and one of
//     its operands requires them. Backward computes gradients for those
//     tensors only.
//   - Gradients accumulate: each Backward adds to the gradients of the leaves
//     it reaches, until ZeroGrad. Intermediate results get their gradient
//     afresh on each Backward (readable with Grad until Reset).
//   - Backward may be called several times per step (two losses sharing a
//     network); Backward needs a one-element loss.
//   - A nil *Tape computes without recording and allocates every result,
//     which stays valid; it suits one-off computations, not hot loops.
//   - A Tape is for one goroutine. Tapes on different goroutines may read the
//     same parameters; Backward writes the gradients of the leaves it reaches.
//
// # Aliasing
//
// FromSlice and FromND (for a contiguous float32 array) reference the
// caller's memory, and ND returns an array referencing the tensor's memory.
// Reshape, Flatten, Squeeze, Unsqueeze, Detach and Slice along a leading axis
// return views that share their operand's data; Transpose, IndexSelect,
// Gather, Concat, Stack, Slice along a later axis, and every arithmetic
// operation return new data. Index returns a view for a contiguous
// selection. Writing into a view writes into its operand. No operation
// modifies its operands.
//
// # Errors and panics
//
// Shapes that do not fit an operation are a programmer error inside a
// model: operations panic with an error wrapping ErrShape (ErrIndex for an
// index outside its axis, ErrArg for a scalar argument outside its domain,
// ErrGrad for an impossible gradient request, ErrStale for a result used after
// Reset), as gonum's mat panics with ErrShape. Data from outside is checked
// with errors instead: FromSlice returns an error wrapping ErrShape, and
// FromND one wrapping ErrDType for an array without a float32 conversion.
// NaN and ±Inf propagate through every operation as in IEEE 754.
//
// # BLAS
//
// Matrix products (MatMul, Linear, Conv2d and their gradients) go through a
// small internal layer over the single-precision GEMM of gonum's blas32
// interface. By default it loads OpenBLAS (libopenblas.so.0, Debian's
// libopenblas0) at run time through purego, without cgo, and falls back to
// gonum's pure-Go implementation when the library is missing or
// GORL_BLAS=gonum is set; BLASName tells which one runs and BLASLoadError why
// OpenBLAS is not used. OpenBLAS runs on one thread; to choose another
// count, set OPENBLAS_NUM_THREADS in the environment before the program
// starts (OpenBLAS's own variable, read once when the library is loaded),
// for example OPENBLAS_NUM_THREADS=4. The package never changes the process
// environment: variables it needs while loading OpenBLAS (one thread, the
// core type for the CPU) are restored right after the load. Convolutions,
// products of at least 8.4 million multiply-adds and long elementwise
// kernels are split over Workers() goroutines instead (see Decisions).
// On amd64 processors with AVX2 and FMA, the convolutions' products,
// Linear with at most 32 rows and a large weight (or, from 8 rows, a
// smaller one with a multiple of 8 inputs), and Linear's three
// products on a batch of at least 32 rows below the split's size run in the
// package's own assembly kernels instead of the BLAS, with either BLAS (see
// Decisions);
// the build tag gorl_noasm leaves them out.
// Building with
// the tag gorl_noopenblas leaves
// the loader (and purego, which makes binaries link the C library
// dynamically) out.
//
// # Decisions
//
// The measurements behind these decisions, with their commands, are in the
// repository's docs/design.md.
//
//   - Operations are methods of an explicit Tape rather than of tensors with a
//     hidden global graph: the tape is what owns and reuses memory, and an
//     explicit owner makes concurrent acting and learning safe. Recording
//     nodes in execution order makes Backward a reverse loop (no topological
//     sort), skipping nodes that received no gradient.
//   - Gradient buffers are written, not cleared and added to, when they hold
//     no gradient yet (GEMMs with beta = 0, "put or add" loops), so Backward
//     does not clear memory it is about to overwrite. Only operations that
//     scatter (broadcast reductions, Gather, IndexSelect, Slice) clear first.
//   - Linear takes PyTorch's weight layout [out, in] and adds the bias by
//     writing it into the result before a GEMM with beta = 1, so the bias
//     costs no extra pass. ReLU stays a separate operation, which keeps one
//     way to build a layer; it is one pass over the result.
//   - ReLU's backward selects with bit masks instead of a branch: with random
//     signs the branch was mispredicted half the time and the pass cost three
//     times as much.
//   - ReLU, forward and backward, runs in SSE2 assembly on amd64 (four
//     elements per instruction; every amd64 processor has SSE2), with the Go
//     loops for the last len mod 4 elements, other platforms and the build
//     tag gorl_noasm; both give the same results. Scalar Go kept the same
//     speed however it was written (Go's max, which compiles without a
//     branch; a sign mask on the bits; two elements per 64-bit word); the
//     kernel nearly halved BenchmarkElementwise/ReLU and sped up acting with
//     the 4→128→128→2 MLP, where ReLU had taken a fifth of the time.
//   - Conv2d is im2col + GEMM with the unrolled input as [N·OH·OW, C·KH·KW].
//     An earlier [C·KH·KW, N·OH·OW] layout filled by strided rows took longer
//     to unroll (rows of 7–20 elements), and its GEMM shapes ran slower in
//     OpenBLAS for the Nature CNN's first layer. Computing the product
//     transposed, [OC, N·OH·OW], was slower in OpenBLAS, and so were
//     per-sample products writing NCHW directly. The unrolled input is kept
//     for the filter gradient (about 13 MB for the Nature CNN at batch 32).
//   - Unrolling copies each patch as runs of KW contiguous values, one per
//     channel and filter row, with the copies for the widths 3, 4 and 8
//     written out element by element. Gathering element by element through a
//     table of offsets paid a load of the offset and a bounds check per
//     value; copy() per run, a copy through an array pointer (compiled to a
//     memmove call) and a loop over each run were no faster. On the Nature
//     CNN this more than halved the first layer's unrolling and cut every
//     layer's forward pass.
//   - The gradient of the unrolled input (for a convolution whose input
//     needs one) is computed and folded back onto the image group of
//     samples by group (see the worker pool below) instead of whole (5.3 MB
//     for the Nature CNN's second layer at batch 32): the group's rows are
//     still in the cache when they are folded. (Before the pool, blocks of
//     512 KB did the same.)
//   - Computing the forward product as cols·(Wᵀ), with Wᵀ copied, in blocks
//     of rows for OpenBLAS's small kernels was faster for the products
//     alone but slower inside the layers; not kept.
//   - The convolution's backward pass reorders the result's gradient
//     [N, OC, P] into [N·P, OC] for its products 32 positions at a time, so
//     that the rows being written stay in the L1 cache, and sums the bias
//     gradient in a separate pass with four partial sums. For the first
//     Nature-CNN layer at batch 32 (32 channels, 400 positions) this took
//     half the time of one running sum with a row-by-row reorder, and fusing
//     the two into one pass was slower still. The forward pass's reorder,
//     which reads with a stride and writes rows, was fastest row by row
//     (tiles of 16 were slower).
//   - Sums over contiguous runs (Sum, Mean, the last axis) use four partial
//     sums: one running sum waits for each addition, which cost the fused
//     ReLU-sum benchmark a third of its time.
//   - Sigmoid and Tanh are computed in float32 from a table-driven exp
//     (2^(j/64) from a 64-entry table times a cubic in the remainder), within
//     4 units in the last place of the exact values over every float32
//     (Sigmoid where its value is a normal float32; 2 units for the exp
//     itself; the bounds are tested against package math on a sample of 8.4
//     million values and were checked once on all 2³²). Through float64
//     math.Exp and math.Tanh they cost two and five times as much per
//     element (Tanh uses the odd Taylor series below 0.3, where
//     1 − 2/(e²ˣ + 1) cancels); a float32 exp from a degree-7 polynomial
//     without the table was slower than the table. Together with the matrix
//     products below this made the GRU and LSTM cells markedly faster. Exp,
//     Log, Softplus, ELU and LogSoftmax keep the math package in float64:
//     they are not on the hot paths measured.
//   - OpenBLAS is called through its Fortran interface (sgemm_), whose
//     arguments are all pointers: purego.SyscallN places only integer
//     arguments correctly, and cblas_sgemm takes its two scalars in
//     floating-point registers. The argument block comes from a free list,
//     so a call allocates nothing.
//   - OPENBLAS_CORETYPE is chosen from the CPU's features when unset:
//     OpenBLAS 0.3.21 does not know newer Intel CPUs (family 6, model 207,
//     for one) and falls back to SSE3 kernels, which take nearly three times
//     as long for a 64×128×128 product.
//   - One OpenBLAS thread: with two, a 64×128×128 product took several
//     times longer, and the MLP and Nature-CNN training steps took longer,
//     not shorter: RL networks are small, and a thread hand-off costs more
//     than it saves.
//   - OpenBLAS 0.3.21 on SkylakeX computes products of at most 10⁶
//     multiply-adds with kernels that read the operands in place, but only
//     when its permit function accepts the shape (for x·wᵀ, the layout of
//     Linear, only if C has at most 1,200 elements); others go to its
//     general kernels, which pack the operands first and were slow for
//     skinny shapes here. The blas layer cuts x·wᵀ with at most 32 rows, and
//     products whose C has at most 31,250 elements (so blocks along the
//     inner dimension keep at least 32 of it), into blocks the small kernels
//     take. This sped up the skinny products of acting and of the MLP's
//     backward pass, the Nature CNN's fc layer at small batches, a GRU's
//     gates and the first convolution's filter gradient, and halved the
//     time of acting with the 4→128→128→2 MLP at batch 16. x·wᵀ with 64
//     rows was not faster in blocks, and neither were the convolutions'
//     large products.
//   - gonum's Sgemm starts goroutines, and allocates, once the result spans
//     four 64×64 blocks; the gonum path cuts products into 64×192 tiles so
//     each runs serially and steady-state steps allocate nothing.
//   - Products of fewer than 256 multiply-adds, and with gonum those whose
//     inner loops would be only a few elements long (x·wᵀ with a 4-wide
//     input, a 2-wide output), run in plain Go loops: a library call costs
//     more there. From 8 rows on, gonum computes x·wᵀ with fewer than 16
//     inputs as x·(wᵀ) on a transposed copy of w (from a free list): its
//     AXPY form beats both its dot-product form and the Go loops there.
//   - Shapes are slices kept with their node's memory, not fixed arrays, so
//     any rank works; only broadcasting and Transpose bound the rank (16,
//     after merging contiguous dimensions) to keep their index bookkeeping on
//     the stack.
//   - Index lists (Gather, IndexSelect, CrossEntropy labels, OneHot,
//     ArgMaxTo) are []int: actions and labels come from nd arrays as
//     integers, and float-coded indices would invite rounding bugs.
//   - The losses return the mean, as PyTorch's defaults do; weighted losses
//     (prioritized replay) are composed from Sub, Mul and Mean.
//   - Dropout does not know about training and evaluation modes; the module
//     that owns it decides whether to call it.
//   - Benchmarks report cpu-ns/op besides ns/op (see above), and their names
//     carry the BLAS that ran (blas=openblas, blas=gonum).
//   - Work is spread over cores by a pool of goroutines (Workers,
//     SetWorkers, GORL_WORKERS), not by OpenBLAS's threads: with
//     OPENBLAS_NUM_THREADS=2 the Nature-CNN step used more CPU time and took
//     longer than on one thread, its threads spin on the cores the
//     goroutines need, and they would split the small products of the MLPs
//     too. A Run claims the helpers idle at that moment, so nested or
//     concurrent Runs never wait for each other (with every helper busy,
//     the caller runs all its tasks). The tasks are cut into a block per
//     worker slot, each worker runs its own block before helping with the
//     others', and a helper keeps its slot from Run to Run: the same
//     helper then computes the same parts of the data in every phase and
//     step, which stay in its core's cache. With one shared counter, the
//     tasks of the Nature CNN's step ran about 40% slower on two workers
//     than on one, fetching what the other core had just written; with
//     blocks they run as fast as on one. A helper that ran a task looks for
//     the next Run for a short while, yielding its processor, before it
//     parks: a parked goroutine's wake-up goes through the scheduler and
//     the operating system, and a Nature-CNN training step hands work over
//     about twenty times in a row. The caller runs tasks itself and returns
//     once every task has run, without waiting for a helper that arrives
//     after the last task was taken (the first pool waited for each helper
//     it had woken, even one that found nothing left). Spinning longer
//     saves wake-ups and costs idle workers CPU time; docs/design.md has
//     the figures behind the length chosen.
//   - Every split is fixed by the shapes, never by the number of workers,
//     and fine enough for 16 workers at the Nature CNN's sizes. A
//     convolution's forward pass cuts the rows of its product into at most
//     64 ranges of at least 2²¹ multiply-adds (multiples of the tile
//     kernels' 6 rows; a range may end inside a sample); the input gradient
//     is computed sample by sample, each folded back onto its own image;
//     the filter gradient is cut into a power of two of sample groups of at
//     least 16.8 million multiply-adds (two from 8.4 million), each group's
//     dWᵀ into tiles of a multiple of 24 rows, and the groups' buffers are
//     summed in group order. The fc layer's tiled forward takes up to 16
//     column tasks, its backward products up to 16 row tasks each, the
//     input gradient's rows cut by columns as well when there are few
//     (18 tasks at batch 32 instead of 6, whose 6-row tasks had been the
//     longest of the backward pass), and a large BLAS product (8.4
//     million multiply-adds or more) cuts C into a power of two of row or
//     column tiles of at least 4.2 million. Each output element is
//     reduced in one fixed order, so a seed gives the same bits on any
//     core count (tested on 1, 2, 4, 8 and 16 workers). The first split (sample groups of at least 16.8 million
//     multiply-adds, at most 4, 4 and 2 forward) stopped the step scaling
//     beyond 4 workers and used at most 2 at batch 8.
//   - A convolution's backward pass has three phases: the result
//     gradient's reorder into [N·P, OC] beside the input gradient (which
//     reads the result gradient where it is, [N, OC, P], through the tile
//     kernels' strided broadcast), then the filter gradient's group tiles,
//     then the sum. The reorder tasks also sum the result gradient per
//     sample and channel for the bias, added up in sample order after the
//     phase (the order of the single pass they replace), and each
//     input-gradient task clears its own samples' images before folding
//     onto them: as serial passes between the phases these took half the
//     time the Nature CNN's step spent outside the pool, and the pauses
//     they made let the helpers park. Tiles of dWᵀ over the whole batch
//     would need no sum but would stream the whole result gradient and
//     unrolled input once per 6 rows of dWᵀ; within a group the stream is
//     a quarter or less of that.
//     With OpenBLAS for the products, tasks of one sample each had made the
//     step take more CPU time (it is inefficient on products of 49 or 81
//     rows), and so had unrolling in parallel, multiplying in one tiled
//     product and reordering in parallel; the tile kernels broadcast A's
//     rows wherever they are and cost the same per row in any range.
//   - Elementwise kernels (ReLU forward and backward, Adam's update) are
//     split into pieces of at least 65,536 elements from 131,072 elements
//     on: below that a hand-off costs more than it saves, and the
//     4→128→128→2 MLP's step stays entirely on the calling goroutine
//     (Linear's backward products below the split size too: they had gone
//     to the pool as two small tasks, which made the MLP's step on two
//     workers take more CPU time than on one). Adam updates all of a
//     step's tensors in one Run, the small ones as one piece each, from
//     262,144 elements in all. The fc layer's tiled forward is cut only
//     from 8.4 million multiply-adds, as the backward products are, and a
//     convolution's gradient reorder into tasks of at least 65,536 values:
//     MinAtar's DQN update had handed three such small Runs to the pool per
//     update, its helper parked between updates, and the two-worker loop
//     ran about 9% slower than one worker's; without them it runs as fast.
//   - The convolutions' products (forward, filter gradient, input
//     gradient) run in tile kernels of our own on amd64: 6 rows by 16
//     columns of the result in AVX2 registers (32 columns with AVX-512),
//     one value of each of the 6 rows of A broadcast per step, whatever
//     A's strides, and 16 or 32 contiguous values of a row of B. OpenBLAS
//     packs the unrolled input, the largest operand, before multiplying,
//     a second pass over it; the kernels read it once where it is. With
//     the Haswell kernels the machine's environment selects
//     (OPENBLAS_CORETYPE=Haswell), the Nature CNN's three forward products
//     at batch 8 took 0.39, 0.44 and 0.55 times the CPU time of OpenBLAS;
//     a first AVX2-only kernel, which advanced six row pointers per step,
//     took 0.84 to 0.90 times. The filter gradient is computed transposed,
//     dWᵀ = colsᵀ·gt, so that B is the result gradient's contiguous rows
//     and the six broadcast values share a cache line; the group sum
//     transposes it back.
//   - A convolution without padding whose result needs no gradient (acting)
//     reads each patch in the image itself, as the runs of KW values that
//     unrolling would copy: no unrolled matrix is written. The Nature CNN's
//     forward at batch 8 took 0.70 times the CPU time of unrolling first.
//     Training keeps the unrolled input, which the filter gradient needs.
//   - Linear with at most 32 rows and at least 2¹⁸ weights (the Nature
//     CNN's fc layer) computes yᵀ = w·xᵀ with the tile kernels, w's rows
//     broadcast from where they are and xᵀ copied into a few columns: the
//     weight is read once. OpenBLAS packs the whole weight first; the fc
//     layer took 0.74, 0.55 and 0.40 times its CPU time at 1, 8 and 32
//     rows. Its backward products stay in the BLAS (at 32 rows both need
//     the weight or its gradient whole, which packing pays for). Acting on
//     8 to 31 envs takes the same way from 2¹³ weights when the inputs are
//     a multiple of 8 (the 128 × 128 hidden layer of CartPole's MLP at 8
//     and 10 rows, 256 × 256 at 8 and 16): the tile kernels took 0.55–0.7
//     times OpenBLAS's time there, while below 8 rows, with 4 inputs or
//     with a 128 × 2 output the two were even or OpenBLAS was ahead.
//   - Linear on a batch (at least 32 rows, a multiple of 8 inputs, fewer
//     than 2²⁷ multiply-adds: an MLP's training step)
//     runs its forward as yᵀ = w·xᵀ in the tile kernels, x and y
//     transposed in 8 × 8 AVX blocks, and its backward products as they
//     are stored: dx = g·w with B = w, dw = gᵀ·x with A = g read by
//     columns and B = x. With OpenBLAS's Haswell kernels on an AVX-512 CPU,
//     the 64 × 128 × 128 forward took 0.57 times the CPU time of OpenBLAS
//     and the two backward products 0.37 times; against its SkylakeX
//     kernels the forward took the same time and the backward 0.8 times.
//     Transposing in Go, value by value, took longer than the product. Layers with 4 inputs (a
//     CartPole observation) stay in the BLAS: their products are too short
//     for the tiles' call overhead. Above the pool's split size (256 × 256
//     layers at batch 128 or 256) the tile kernels took half OpenBLAS's
//     Haswell time too, so those products go to them as well, cut into
//     tasks of rows of dx and of dw fixed by the shapes; the 64→256→256→18
//     step at batch 256 took half the CPU time it took in OpenBLAS.
//   - Not tried for lack of time: a Winograd 3×3 kernel (the third
//     convolution is now the smallest of the three), NHWC layouts that
//     would drop the reorder between layers, and a ReLU fused into the
//     convolution (it would add a second way to build a layer).
package tensor
