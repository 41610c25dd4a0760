// Copies every icon (svg, png) from icons/, nodes/ and credentials/ into dist/, keeping paths:
// tsc emits no images, and nodes reference theirs relative to the compiled files.
const { src, dest } = require('gulp');

function buildIcons() {
	return src(['icons/**/*.{png,svg}', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
