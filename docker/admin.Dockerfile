# The admin SPA on its own, talking to the API at VITE_API_BASE: docker build -f docker/admin.Dockerfile --build-arg VITE_API_BASE=https://api.example.com .
FROM node:20-bookworm-slim AS build
WORKDIR /app
ARG VITE_API_BASE=""
ENV VITE_API_BASE=$VITE_API_BASE
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx vite build --config apps/admin/vite.config.mts

FROM nginx:1.27-alpine
COPY --from=build /app/dist/admin /usr/share/nginx/html
RUN printf 'server {\n  listen 80;\n  root /usr/share/nginx/html;\n  location / { try_files $uri /index.html; }\n}\n' > /etc/nginx/conf.d/default.conf
EXPOSE 80
