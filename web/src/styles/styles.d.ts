// Style sheets are imported for their effect: Bun's bundler emits them as the build's CSS file.
declare module '*.css';
