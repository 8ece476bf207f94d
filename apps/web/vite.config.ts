import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development the SPA runs on Vite's port and the API on the server's; in production
// the server serves the built files itself, on one origin.
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 600 },
  server: {
    proxy: {
      "/api": "http://localhost:3000",
      "/health": "http://localhost:3000",
      "/assistant": "http://localhost:3000",
    },
  },
});
