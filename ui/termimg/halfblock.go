package termimg

import (
	"image"
	"image/color"
	"strconv"
	"strings"
)

// halfBlock previews the image in o.Cols columns: each cell is "▀" with
// the upper pixel as foreground and the lower as background, in true
// colour; a terminal cell is about twice as tall as wide, so one cell
// holds two square pixels.
func halfBlock(data []byte, o Options) (string, error) {
	img, err := decode(data)
	if err != nil {
		return "", err
	}
	img = fit(img, o.Cols, o.Cols*2)
	b := img.Bounds()
	var sb strings.Builder
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		if y > b.Min.Y {
			sb.WriteByte('\n')
		}
		for x := b.Min.X; x < b.Max.X; x++ {
			top := rgb(img.At(x, y))
			sb.WriteString("\x1b[38;2;" + top)
			if y+1 < b.Max.Y {
				sb.WriteString(";48;2;" + rgb(img.At(x, y+1)))
			} else {
				sb.WriteString(";49")
			}
			sb.WriteString("m▀")
		}
		sb.WriteString("\x1b[0m")
	}
	return sb.String(), nil
}

// rgb is c as "r;g;b", composed over black.
func rgb(c color.Color) string {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	a := uint32(n.A)
	ch := func(v uint8) string { return strconv.Itoa(int(uint32(v) * a / 255)) }
	return ch(n.R) + ";" + ch(n.G) + ";" + ch(n.B)
}

var _ image.Image = (*image.RGBA)(nil)
