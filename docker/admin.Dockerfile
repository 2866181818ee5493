# The admin SPA served by nginx, in front of the API: docker build -f docker/admin.Dockerfile .
# The API sends no CORS headers and its session cookie is the app's, so the SPA and the API share one origin:
# docker/nginx/hearth.conf.template passes /api/, /auth/ and /sessions to API_UPSTREAM (default http://api:3000).
# Run the API with TRUST_PROXY=1 (this nginx is its one proxy) and APP_URL set to this server's public URL.
# (The API image serves the SPA itself too; this image is for putting nginx in front.)
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx vite build --config apps/admin/vite.config.mts

FROM nginx:1.27-alpine
ENV API_UPSTREAM=http://api:3000
COPY --from=build /app/dist/admin /usr/share/nginx/html
# The image's entrypoint writes /etc/nginx/conf.d/hearth.conf from this template, filling in ${API_UPSTREAM}.
COPY docker/nginx/hearth.conf.template /etc/nginx/templates/hearth.conf.template
RUN rm -f /etc/nginx/conf.d/default.conf
EXPOSE 80
