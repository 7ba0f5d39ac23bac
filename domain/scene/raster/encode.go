package raster

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
)

// encodePNG writes an opaque image as an 8-bit RGB PNG with the Sub filter on every row. The
// standard encoder tries five filters on each row and keeps the best, which took a third of a
// picture's time; the pictures are flat colours, where Sub (each byte less the one a pixel to its
// left) leaves runs of zeros that compress as well.
func encodePNG(img *image.RGBA) ([]byte, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		return nil, err
	}
	row := make([]byte, 1+3*w)
	row[0] = 1 // Sub
	for y := range h {
		pix := img.Pix[y*img.Stride:]
		var left [3]byte
		for x := range w {
			for c := range 3 {
				v := pix[4*x+c]
				row[1+3*x+c] = v - left[c]
				left[c] = v
			}
		}
		if _, err := zw.Write(row); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Grow(idat.Len() + 64)
	out.WriteString("\x89PNG\r\n\x1a\n")
	header := make([]byte, 13)
	binary.BigEndian.PutUint32(header[0:], uint32(w))
	binary.BigEndian.PutUint32(header[4:], uint32(h))
	header[8], header[9] = 8, 2 // 8 bits, RGB; compression, filter and interlace methods 0
	chunk(&out, "IHDR", header)
	chunk(&out, "IDAT", idat.Bytes())
	chunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

func chunk(out *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	out.WriteString(kind)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}
