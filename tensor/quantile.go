package tensor

import "math"

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
// The gradient of each row is kept from the forward pass, so the backward
// pass is one multiplication per element of pred.
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
	k, inv := float64(kappa), 1/float64(kappa)
	for b := range rows {
		p := pred.data[b*n : (b+1)*n]
		t := target.data[b*m : (b+1)*m]
		ta := tau.data[b*tauStride : b*tauStride+n]
		g := node.aux[0][b*n : (b+1)*n]
		var sum float64
		for i, pi := range p {
			tau := float64(ta[i])
			var s, gs float64
			for _, tj := range t {
				u := float64(tj) - float64(pi)
				w := tau
				if u <= 0 {
					w = 1 - tau
				}
				w = math.Abs(w)
				a := math.Abs(u)
				if a <= k {
					s += w * 0.5 * u * u * inv
					gs -= w * u * inv
				} else {
					s += w * (a - 0.5*k)
					gs -= w * math.Copysign(1, u)
				}
			}
			sum += s
			g[i] = float32(gs / float64(n))
		}
		y[b] = float32(sum / float64(n))
	}
	return &node.out
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
		row := y[k*n : (k+1)*n]
		pt := math.Pi * float64(t)
		for i := range row {
			row[i] = float32(math.Cos(pt * float64(i+1)))
		}
	}
	return &node.out
}

func cosinesBack(node *node) {
	x, n := node.a, node.ints[0]
	dx, acc := gradInto(x)
	g := node.out.grad
	for k, t := range x.data {
		pt := math.Pi * float64(t)
		var s float64
		for i, gi := range g[k*n : (k+1)*n] {
			f := math.Pi * float64(i+1)
			s -= float64(gi) * f * math.Sin(pt*float64(i+1))
		}
		v := float32(s)
		if acc {
			v += dx[k]
		}
		dx[k] = v
	}
}
