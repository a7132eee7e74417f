package cueval

// HelmRenders is how many releases e has rendered with Helm.
func HelmRenders(e *Engine) int { return len(e.helmRenders) }
