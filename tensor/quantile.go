package tensor

import (
	"math"
	"slices"
)

// QuantileHuber returns the quantile Huber loss of each row (Dabney et al.,
// "Distributional Reinforcement Learning with Quantile Regression", 2018) as
// a tensor [B]: for predicted quantiles pred [B, N] at the fractions tau
// ([N], shared by every row, or [B, N]) and samples of the target
// distribution target [B, M],
//
//	ℓ_b = (1/N) Σᵢ Σⱼ |τᵢ − 1{uᵢⱼ ≤ 0}| · Lκ(uᵢⱼ)/κ,    uᵢⱼ = target_bj − pred_bi,
//
// with Lκ the Huber function of threshold κ = kappa (½u² for |u| ≤ κ,
// κ(|u| − ½κ) beyond): a mean over the predicted quantiles of a sum over the
// target samples, as Tianshou reduces it (the paper's sum over i and mean
// over j, equal when N = M). With κ = 1, Lκ/κ is PyTorch's smooth_l1_loss.
//
// Gradients flow to pred only: target and tau are constants of the loss (the
// quantile regression targets and fractions are never trained through it).
// Each row's targets are sorted once, so that each predicted quantile costs
// three binary searches and prefix sums instead of M terms; the gradient is
// kept from the forward pass, so the backward pass is one multiplication per
// element of pred.
//
// QuantileHuber panics with ErrShape unless pred and target are matrices with
// the same number of rows and tau is [N] or [B, N], and with ErrArg unless
// kappa > 0.
func (tp *Tape) QuantileHuber(pred, target, tau *Tensor, kappa float32) *Tensor {
	if !(kappa > 0) {
		panicf(ErrArg, "QuantileHuber threshold %v", kappa)
	}
	if len(pred.shape) != 2 || len(target.shape) != 2 || pred.shape[0] != target.shape[0] {
		panicf(ErrShape, "QuantileHuber of prediction %v and target %v", pred.shape, target.shape)
	}
	rows, n, m := pred.shape[0], pred.shape[1], target.shape[1]
	tauStride := 0
	switch {
	case len(tau.shape) == 1 && tau.shape[0] == n:
	case len(tau.shape) == 2 && tau.shape[0] == rows && tau.shape[1] == n:
		tauStride = n
	default:
		panicf(ErrShape, "QuantileHuber: fractions %v for prediction %v", tau.shape, pred.shape)
	}
	node := tp.newNode(quantileHuberBack, pred, nil, nil)
	y := node.setShape(rows)
	node.aux[0] = resize(node.aux[0], len(pred.data)) // ∂ℓ_b/∂pred_bi
	node.aux[1] = resize(node.aux[1], m)              // a row of targets, sorted
	node.f64 = resize(node.f64, 2*(m+1))              // their prefix sums Σt, Σt²
	k := float64(kappa)
	sorted, s1, s2 := node.aux[1], node.f64[:m+1], node.f64[m+1:]
	for b := range rows {
		copy(sorted, target.data[b*m:(b+1)*m])
		slices.Sort(sorted)
		for j, t := range sorted {
			s1[j+1] = s1[j] + float64(t)
			s2[j+1] = s2[j] + float64(t)*float64(t)
		}
		p := pred.data[b*n : (b+1)*n]
		ta := tau.data[b*tauStride : b*tauStride+n]
		g := node.aux[0][b*n : (b+1)*n]
		var sum float64
		for i, pi := range p {
			l, d := quantileRow(sorted, s1, s2, float64(pi), float64(ta[i]), k)
			sum += l
			g[i] = float32(d / float64(n))
		}
		y[b] = float32(sum / float64(n))
	}
	return &node.out
}

// quantileRow returns Σⱼ |τ − 1{uⱼ ≤ 0}|·Lκ(uⱼ)/κ over uⱼ = tⱼ − p and its
// derivative with respect to p, for targets t sorted ascending with prefix
// sums s1 (of t) and s2 (of t²). The targets fall into four runs by u:
// below −κ (weight 1 − τ, value −u − κ/2), in [−κ, 0] (1 − τ, u²/2κ), in
// (0, κ] (τ, u²/2κ) and above κ (τ, u − κ/2); each run's sum is a
// polynomial in p of the run's count and sums, so a row costs a sort and
// three binary searches per quantile instead of N·M terms.
func quantileRow(t []float32, s1, s2 []float64, p, tau, k float64) (loss, grad float64) {
	lo := searchAbove(t, p-k, false) // t < p − κ
	mid := searchAbove(t, p, true)   // t ≤ p
	hi := searchAbove(t, p+k, true)  // t ≤ p + κ
	// sums of a run [i, j): count, Σt, Σt²
	run := func(i, j int) (c, a, q float64) { return float64(j - i), s1[j] - s1[i], s2[j] - s2[i] }
	c, a, _ := run(0, lo)
	loss += (1 - tau) * (c*(p-k/2) - a)
	grad += (1 - tau) * c
	c, a, q := run(lo, mid)
	loss += (1 - tau) * (q - 2*p*a + p*p*c) / (2 * k)
	grad -= (1 - tau) * (a - p*c) / k
	c, a, q = run(mid, hi)
	loss += tau * (q - 2*p*a + p*p*c) / (2 * k)
	grad -= tau * (a - p*c) / k
	c, a, _ = run(hi, len(t))
	loss += tau * (a - c*(p+k/2))
	grad -= tau * c
	return loss, grad
}

// searchAbove returns the number of values of the sorted t below x (or at
// most x when orEqual).
func searchAbove(t []float32, x float64, orEqual bool) int {
	i, j := 0, len(t)
	for i < j {
		h := int(uint(i+j) >> 1)
		if v := float64(t[h]); v < x || orEqual && v == x {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

func quantileHuberBack(node *node) {
	x := node.a
	rows, n := x.shape[0], x.shape[1]
	dx, acc := gradInto(x)
	for b := range rows {
		s := node.out.grad[b]
		g, d := node.aux[0][b*n:(b+1)*n], dx[b*n:(b+1)*n]
		for i, v := range g {
			v *= s
			if acc {
				v += d[i]
			}
			d[i] = v
		}
	}
}

// Cosines returns the cosine features of IQN's fraction embedding (Dabney
// et al., "Implicit Quantile Networks for Distributional Reinforcement
// Learning", 2018): for τ of any shape, a tensor of shape τ.shape + [n] with
//
//	y[…, i−1] = cos(π·i·τ[…]),    i = 1 … n,
//
// counting i from 1 as Tianshou's cosine embedding does. Its gradient with
// respect to τ is −Σᵢ π·i·sin(π·i·τ)·∂y.
//
// Cosines panics with ErrArg unless n ≥ 1.
func (tp *Tape) Cosines(tau *Tensor, n int) *Tensor {
	if n < 1 {
		panicf(ErrArg, "Cosines of %d features", n)
	}
	node := tp.newNode(cosinesBack, tau, nil, nil)
	node.ints[0] = n
	shape := append(node.idx[:0], tau.shape...)
	shape = append(shape, n)
	node.idx = shape
	y := node.setShape(shape...)
	for k, t := range tau.data {
		// cos((i+1)x) = 2·cos x·cos(ix) − cos((i−1)x), in float64.
		row := y[k*n : (k+1)*n]
		c1 := math.Cos(math.Pi * float64(t))
		prev, cur := 1.0, c1
		for i := range row {
			row[i] = float32(cur)
			prev, cur = cur, 2*c1*cur-prev
		}
	}
	return &node.out
}

func cosinesBack(node *node) {
	x, n := node.a, node.ints[0]
	dx, acc := gradInto(x)
	g := node.out.grad
	for k, t := range x.data {
		// sin((i+1)x) = 2·cos x·sin(ix) − sin((i−1)x), in float64.
		pt := math.Pi * float64(t)
		c1 := 2 * math.Cos(pt)
		prev, cur := 0.0, math.Sin(pt)
		var s float64
		for i, gi := range g[k*n : (k+1)*n] {
			s -= float64(gi) * math.Pi * float64(i+1) * cur
			prev, cur = cur, c1*cur-prev
		}
		v := float32(s)
		if acc {
			v += dx[k]
		}
		dx[k] = v
	}
}
