package release

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The registry's icon rules (build_registry.py): square, 16×16 by its
// width and height or else its viewBox, drawn in currentColor, and no
// fill or stroke, as an attribute or in a style, other than currentColor,
// none or inherit.
var (
	iconWidth   = regexp.MustCompile(`<svg[^>]*\swidth=["'](\d+)`)
	iconHeight  = regexp.MustCompile(`<svg[^>]*\sheight=["'](\d+)`)
	iconViewBox = regexp.MustCompile(`viewBox=["'][\d.]+\s+[\d.]+\s+([\d.]+)\s+([\d.]+)`)
	iconPaint   = regexp.MustCompile(`(?i)\b(fill|stroke)\s*=\s*["']([^"']+)["']`)
	iconStyle   = regexp.MustCompile(`(?i)\bstyle\s*=\s*["']([^"']+)["']`)
	stylePaint  = regexp.MustCompile(`(?i)\b(fill|stroke)\s*:\s*([^;]+)`)
)

// ValidateIcon checks an icon.svg against the registry's rules and returns
// every problem (Field "icon.svg").
func ValidateIcon(svg []byte) []Problem {
	var v validator
	s := string(svg)
	w, h, ok := iconSize(s)
	switch {
	case !ok:
		v.add("icon.svg", "needs width and height, or a viewBox")
	case w != h:
		v.add("icon.svg", fmt.Sprintf("must be square, is %gx%g", w, h))
	case w != 16:
		v.add("icon.svg", fmt.Sprintf("must be 16x16, is %gx%g", w, h))
	}
	var paints [][]string
	for _, m := range iconPaint.FindAllStringSubmatch(s, -1) {
		paints = append(paints, m[1:])
	}
	for _, style := range iconStyle.FindAllStringSubmatch(s, -1) {
		for _, m := range stylePaint.FindAllStringSubmatch(style[1], -1) {
			paints = append(paints, m[1:])
		}
	}
	for _, p := range paints {
		switch strings.ToLower(strings.TrimSpace(p[1])) {
		case "currentcolor", "none", "inherit":
		default:
			v.add("icon.svg", fmt.Sprintf("%s %q: use currentColor or none", strings.ToLower(p[0]), strings.TrimSpace(p[1])))
		}
	}
	if !strings.Contains(strings.ToLower(s), "currentcolor") {
		v.add("icon.svg", "must draw in currentColor")
	}
	return v.problems
}

func iconSize(s string) (w, h float64, ok bool) {
	wm, hm := iconWidth.FindStringSubmatch(s), iconHeight.FindStringSubmatch(s)
	if wm != nil && hm != nil {
		w, _ = strconv.ParseFloat(wm[1], 64)
		h, _ = strconv.ParseFloat(hm[1], 64)
		return w, h, true
	}
	if vb := iconViewBox.FindStringSubmatch(s); vb != nil {
		w, _ = strconv.ParseFloat(vb[1], 64)
		h, _ = strconv.ParseFloat(vb[2], 64)
		return w, h, true
	}
	return 0, 0, false
}
