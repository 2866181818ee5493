# The admin SPA served by nginx, in front of the API: docker build -f docker/admin.Dockerfile .
# The API sends no CORS headers and its session cookie is the app's, so the SPA and the API must share one origin:
# nginx passes /api/ and /auth/ to API_UPSTREAM (default http://api:3000). Set the API's APP_URL to this server's
# public URL. (The API image serves the SPA itself too; this image is for putting nginx in front.)
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx vite build --config apps/admin/vite.config.mts

FROM nginx:1.27-alpine
ENV API_UPSTREAM=http://api:3000
COPY --from=build /app/dist/admin /usr/share/nginx/html
# The image's entrypoint fills in ${API_UPSTREAM} (only variables set in the environment, so nginx's own stay).
RUN mkdir -p /etc/nginx/templates && printf '%s\n' \
  'server {' \
  '  listen 80;' \
  '  root /usr/share/nginx/html;' \
  '  location /api/ { proxy_pass ${API_UPSTREAM}; proxy_set_header Host $http_host; proxy_set_header X-Forwarded-For $remote_addr; }' \
  '  location /auth/ { proxy_pass ${API_UPSTREAM}; proxy_set_header Host $http_host; proxy_set_header X-Forwarded-For $remote_addr; }' \
  '  location / { add_header Referrer-Policy no-referrer; try_files $uri /index.html; }' \
  '}' > /etc/nginx/templates/default.conf.template && rm -f /etc/nginx/conf.d/default.conf
EXPOSE 80
